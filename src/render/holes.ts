/**
 * Holes: the few named fragments of a shared page that differ per visitor (decision 157). The
 * page is rendered once for everybody with each fragment as a guest sees it, its outermost
 * element marked `data-hole="<name>"` as its first attribute; a visitor's answer is the shared
 * page with those elements replaced by the visitor's own, rendered from one read of their session.
 *
 * A hole is a whole element, so a fragment can change its attributes and its children alike.
 * Elements are found once per kept page (`findHoles`), and filling is slicing and joining
 * (`fillHoles`): no parsing per request.
 */

/** The attribute that names a hole; it must be the element's first attribute. */
export const HOLE_ATTRIBUTE = 'data-hole';

/** The id of the page's visitor data: JSON the islands that show visitor data read in the browser. */
export const VISITOR_SCRIPT_ID = 'k-visitor';

/** The hole of the visitor data itself. */
export const VISITOR_HOLE = 'visitor';

/** Where a hole's element stands in a page: `[start, end)` in UTF-16 code units of its text. */
export interface HoleSpan {
  name: string;
  start: number;
  end: number;
}

/**
 * The visitor data as the text of a `<script type="application/json">`: `<` is escaped, so no
 * value can close the script element, and U+2028/U+2029 are escaped as JSON allows.
 */
export function visitorJson(visitor: object): string {
  return JSON.stringify(visitor)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The visitor data's element, as React renders `<VisitorScript>` (see site layouts). */
export function visitorScriptHtml(visitor: object): string {
  return `<script ${HOLE_ATTRIBUTE}="${VISITOR_HOLE}" type="application/json" id="${VISITOR_SCRIPT_ID}">${visitorJson(visitor)}</script>`;
}

/**
 * Every marked element of a page, in order. An element ends at the closing tag that balances
 * its opening tag (elements of the same name inside it are counted). Returns undefined when a
 * marked element has no end, or a name stands twice: such a page is not kept.
 */
export function findHoles(html: string): HoleSpan[] | undefined {
  const spans: HoleSpan[] = [];
  const marker = ` ${HOLE_ATTRIBUTE}="`;
  let from = 0;
  for (;;) {
    const at = html.indexOf(marker, from);
    if (at === -1) break;
    const start = html.lastIndexOf('<', at);
    const tag = /^<([a-z][a-z0-9-]*)$/.exec(html.slice(start, at))?.[1];
    const nameEnd = html.indexOf('"', at + marker.length);
    const name = html.slice(at + marker.length, nameEnd);
    if (!tag || nameEnd === -1 || spans.some((s) => s.name === name)) return undefined;
    const end = closingEnd(html, tag, at);
    if (end === undefined) return undefined;
    spans.push({ name, start, end });
    from = end;
  }
  return spans;
}

/** The index just past the closing tag that balances the `<tag` opened before `from`. */
function closingEnd(html: string, tag: string, from: number): number | undefined {
  const open = new RegExp(`<${tag}[\\s>/]|</${tag}>`, 'g');
  open.lastIndex = from;
  let depth = 1;
  for (let match = open.exec(html); match; match = open.exec(html)) {
    depth += match[0].startsWith('</') ? -1 : 1;
    if (depth === 0) return match.index + match[0].length;
  }
  return undefined;
}

/**
 * The page with each hole named in `fills` replaced by its fragment; holes not named keep the
 * shared (guest) fragment.
 */
export function fillHoles(html: string, spans: HoleSpan[], fills: Record<string, string>): string {
  const parts: string[] = [];
  let at = 0;
  for (const span of spans) {
    const fill = fills[span.name];
    if (fill === undefined) continue;
    parts.push(html.slice(at, span.start), fill);
    at = span.end;
  }
  parts.push(html.slice(at));
  return parts.join('');
}
