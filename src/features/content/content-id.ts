/**
 * Content ids (decisions 040 and 105): `{kind}-{row id}`, the kind naming the table the row is
 * in (`recipe-51`, `product-51`, `page-12`, `news-7`). The tables number their rows apart, so a
 * bare number would be ambiguous. Every content id the API hands out (search hits, product cards)
 * is of this form, and every endpoint that takes one (the like endpoint) reads this form.
 */

export const CONTENT_KINDS = ['recipe', 'product', 'page', 'news'] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];

export interface ContentRef {
  kind: ContentKind;
  id: number;
}

/** The largest row id (PostgreSQL `integer`). */
const MAX_ROW_ID = 2_147_483_647;

/** The form of a content id (its row id may still be too large: see `parseContentId`). */
export const CONTENT_ID_PATTERN = new RegExp(`^(${CONTENT_KINDS.join('|')})-([1-9][0-9]{0,9})$`);

/** The content id of a row. */
export function contentIdOf(ref: ContentRef): string {
  return `${ref.kind}-${ref.id}`;
}

/** The row a content id names, or undefined when it is not one. */
export function parseContentId(value: string): ContentRef | undefined {
  const [, kind, digits] = CONTENT_ID_PATTERN.exec(value) ?? [];
  const id = Number(digits);
  if (!kind || id > MAX_ROW_ID) return undefined;
  return { kind: kind as ContentKind, id };
}
