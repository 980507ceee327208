import { type NewsDocument, newsDocumentSchema } from '../../features/content/index.ts';
import { isAdminMessageKey } from '../../i18n/admin.ts';

/**
 * The news release editor's form (decision 172): the release's fields as typed. The document it
 * stands for is checked with `newsDocumentSchema`, the schema the server uses; the release
 * service (`source`) and its facet tags and categories are kept as they are.
 */
export interface NewsForm {
  path: string;
  title: string;
  teaser: string;
  bodyHtml: string;
  imageId: number | null;
  /** One author a line. */
  authors: string;
  textType: string;
  source: NewsDocument['source'];
  categoryIds: number[];
  facetTagIds: number[];
}

export function emptyNewsForm(): NewsForm {
  return {
    path: '',
    title: '',
    teaser: '',
    bodyHtml: '',
    imageId: null,
    authors: '',
    textType: '',
    source: 'cision',
    categoryIds: [],
    facetTagIds: [],
  };
}

export function newsFormOf(doc: NewsDocument): NewsForm {
  return {
    path: doc.path,
    title: doc.title,
    teaser: doc.teaser,
    bodyHtml: doc.bodyHtml,
    imageId: doc.imageId,
    authors: doc.authors.join('\n'),
    textType: doc.textType ?? '',
    source: doc.source,
    categoryIds: doc.categoryIds,
    facetTagIds: doc.facetTagIds,
  };
}

/**
 * The document the form stands for, or the errors (message keys by the API's field names) that
 * stop it being sent. Authors: one a line, empty lines dropped.
 */
export function newsDocumentOf(
  form: NewsForm,
): { document: NewsDocument } | { errors: Record<string, string> } {
  const parsed = newsDocumentSchema.safeParse({
    path: form.path,
    title: form.title,
    teaser: form.teaser,
    bodyHtml: form.bodyHtml,
    imageId: form.imageId,
    authors: form.authors
      .split('\n')
      .map((a) => a.trim())
      .filter(Boolean),
    textType: form.textType.trim() === '' ? null : form.textType,
    source: form.source,
    categoryIds: form.categoryIds,
    facetTagIds: form.facetTagIds,
  });
  if (parsed.success) return { document: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const [head] = issue.path.map(String);
    // An author's line is one field in the form.
    const field =
      head === 'authors' ? 'document.authors' : ['document', ...issue.path.map(String)].join('.');
    errors[field] ??= isAdminMessageKey(issue.message) ? issue.message : 'admin.error.invalid';
  }
  return { errors };
}
