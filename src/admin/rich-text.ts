import Link from '@tiptap/extension-link';
import { OrderedList } from '@tiptap/extension-list';
import { type Extensions, mergeAttributes } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';

/**
 * The rich-text editor's schema (decision 166): only what the public pages' sanitiser
 * (`sanitizeRichText`, src/render/rich-text.server.tsx) keeps as it is. Paragraphs, headings 2–4,
 * bulleted and numbered lists, quotes, line breaks, bold, italic and links (to a path of the
 * site, http(s), mailto or tel); no code, strike-through, underline, rules, images, classes or
 * link targets. A link that leaves the site carries `rel="noopener noreferrer"`, as the sanitiser
 * would give it. `rich-text.test.ts` proves the output passes the sanitiser unchanged.
 */

/** The addresses a link may have: a path of the site, http(s), mailto or tel. */
export function allowedHref(href: string): boolean {
  return (
    /^(\/(?!\/)|https?:\/\/|mailto:|tel:)/i.test(href) &&
    !/[\s<>"'`\\]/.test(href.trim()) &&
    href.length <= 2000
  );
}

/** A link mark with an address only; its `rel` follows from the address. */
const SiteLink = Link.extend({
  addAttributes() {
    return {
      href: {
        default: null,
        parseHTML: (element: HTMLElement) => element.getAttribute('href'),
      },
    };
  },
  renderHTML({ HTMLAttributes }) {
    const href = String(HTMLAttributes.href ?? '');
    const safe = allowedHref(href) ? href : '#';
    return [
      'a',
      mergeAttributes({ href: safe }, /^https?:/i.test(safe) ? { rel: 'noopener noreferrer' } : {}),
      0,
    ];
  },
}).configure({
  openOnClick: false,
  autolink: false,
  linkOnPaste: false,
  isAllowedUri: (url) => allowedHref(url),
});

/** A numbered list that always starts at 1 (the sanitiser keeps no `start` or `type`). */
const PlainOrderedList = OrderedList.extend({
  addAttributes() {
    return {};
  },
  renderHTML() {
    return ['ol', 0];
  },
});

export function richTextExtensions(): Extensions {
  return [
    StarterKit.configure({
      code: false,
      codeBlock: false,
      strike: false,
      underline: false,
      horizontalRule: false,
      link: false,
      orderedList: false,
      heading: { levels: [2, 3, 4] },
    }),
    PlainOrderedList,
    SiteLink,
  ];
}

/**
 * TipTap's HTML as the sanitiser writes the same markup: a line break as `<br />` and a no-break
 * space as the character (the browser writes `<br>` and `&nbsp;`). What the editor hands the form.
 */
export function normaliseRichText(html: string): string {
  const out = html.replace(/<br>/g, '<br />').replace(/&nbsp;/g, '\u00a0');
  // An editor left empty is no text, not an empty paragraph.
  return out === '<p></p>' ? '' : out;
}
