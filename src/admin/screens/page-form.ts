import {
  type Block,
  blockSchema,
  type NavArea,
  type PageDocument,
  pageDocumentSchema,
} from '../../features/content/admin.ts';
import { isAdminMessageKey } from '../../i18n/admin.ts';
import { newKey } from './recipe-form.ts';
import { initialOf, type Schema } from './schema-fields.tsx';

/**
 * The page editor's form (decision 166): the page's own fields as typed, and its blocks, each
 * with a key of its own so that moving one keeps its fields and focus. The document it stands
 * for is checked with `pageDocumentSchema`, the schema the server and the renderer use.
 */
export interface BlockRow {
  key: string;
  value: Record<string, unknown>;
}

export interface PageForm {
  path: string;
  title: string;
  navLabel: string;
  teaser: string;
  teaserImageId: number | null;
  seoTitle: string;
  seoDescription: string;
  type: string;
  parentId: number | null;
  showInNav: boolean;
  navArea: NavArea;
  /** Its place among its siblings in the menus, as typed (a whole number). */
  sortOrder: string;
  settings: Record<string, unknown>;
  blocks: BlockRow[];
}

/** The block types, in the order of the renderer's schema, with each one's schema. */
export const blockTypes: [type: string, schema: Schema][] = (
  (blockSchema as unknown as Schema)._zod.def.options ?? []
).map((option) => {
  const shape = option._zod.def.shape ?? {};
  const literal = shape.type?._zod.def.values?.[0];
  return [String(literal), option];
});

export const blockSchemaOf = (type: string): Schema | undefined =>
  blockTypes.find(([t]) => t === type)?.[1];

/** A new block of a type: its required fields empty, its defaults as the schema gives them. */
export function newBlock(type: string): BlockRow {
  const schema = blockSchemaOf(type);
  const value = (schema ? initialOf(schema) : {}) as Record<string, unknown>;
  return { key: newKey(), value: { ...value, type } };
}

export function emptyPageForm(parentId: number | null = null): PageForm {
  return {
    path: '',
    title: '',
    navLabel: '',
    teaser: '',
    teaserImageId: null,
    seoTitle: '',
    seoDescription: '',
    type: 'content',
    parentId,
    showInNav: true,
    navArea: 'bottom',
    sortOrder: '0',
    settings: {},
    blocks: [],
  };
}

export function pageFormOf(doc: PageDocument): PageForm {
  return {
    path: doc.path,
    title: doc.title,
    navLabel: doc.navLabel ?? '',
    teaser: doc.teaser,
    teaserImageId: doc.teaserImageId,
    seoTitle: doc.seoTitle ?? '',
    seoDescription: doc.seoDescription ?? '',
    type: doc.type,
    parentId: doc.parentId,
    showInNav: doc.showInNav,
    navArea: doc.navArea,
    sortOrder: String(doc.sortOrder),
    settings: doc.settings,
    blocks: doc.blocks.map((block) => ({
      key: newKey(),
      value: structuredClone(block) as Record<string, unknown>,
    })),
  };
}

/** An issue of the schema as a message key of the back office's catalogue. */
function messageOf(issue: { code: string; message: string; minimum?: unknown; origin?: unknown }) {
  if (isAdminMessageKey(issue.message)) return issue.message;
  if (issue.code === 'too_small' && issue.origin === 'string' && issue.minimum === 1)
    return 'admin.error.required';
  if (issue.code === 'too_big' && issue.origin === 'string') return 'admin.error.tooLong';
  return 'admin.error.invalid';
}

/**
 * The document the form stands for, or the errors (message keys by the API's field names) that
 * stop it being sent. The server checks it again with the same schema.
 */
export function pageDocumentOf(
  form: PageForm,
): { document: PageDocument } | { errors: Record<string, string> } {
  const nullable = (text: string) => (text.trim() === '' ? null : text);
  const parsed = pageDocumentSchema.safeParse({
    path: form.path,
    title: form.title,
    navLabel: nullable(form.navLabel),
    teaser: form.teaser,
    teaserImageId: form.teaserImageId,
    seoTitle: nullable(form.seoTitle),
    seoDescription: nullable(form.seoDescription),
    type: form.type,
    parentId: form.parentId,
    showInNav: form.showInNav,
    navArea: form.navArea,
    sortOrder: /^\s*-?\d+\s*$/.test(form.sortOrder) ? Number(form.sortOrder) : Number.NaN,
    settings: form.settings,
    blocks: form.blocks.map((b) => b.value as Block),
  });
  if (parsed.success) return { document: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    errors[['document', ...issue.path.map(String)].join('.')] ??= messageOf(
      issue as unknown as Parameters<typeof messageOf>[0],
    );
  }
  return { errors };
}

/** The block a field's name (`document.blocks.3.header`) is in, or undefined. */
export function blockIndexOf(field: string): number | undefined {
  const match = /^document\.blocks\.(\d+)(\.|$)/.exec(field);
  return match ? Number(match[1]) : undefined;
}

/** A line that tells a block from its neighbours: its header, title or text, shortened. */
export function blockSummary(value: Record<string, unknown>): string {
  for (const key of ['header', 'title', 'question', 'text', 'html']) {
    const v = value[key];
    if (typeof v === 'string' && v.trim()) {
      const plain = v
        .replace(/<[^>]*>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim();
      if (plain) return plain.length > 60 ? `${plain.slice(0, 59)}…` : plain;
    }
  }
  const slides = value.slides;
  if (Array.isArray(slides) && slides.length > 0) {
    return blockSummary((slides[0] ?? {}) as Record<string, unknown>);
  }
  return '';
}
