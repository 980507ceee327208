import sanitizeHtml from 'sanitize-html';

const options: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'h2',
    'h3',
    'h4',
    'ul',
    'ol',
    'li',
    'strong',
    'b',
    'em',
    'i',
    'a',
    'br',
    'blockquote',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'span',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'hreflang', 'rel'],
    th: ['scope'],
    span: ['lang'],
    p: ['lang'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowProtocolRelative: false,
  transformTags: {
    // Links that leave the site do not hand it the opener.
    a: (tagName, attribs) => ({
      tagName,
      attribs: /^https?:/i.test(attribs.href ?? '')
        ? { ...attribs, rel: 'noopener noreferrer' }
        : attribs,
    }),
  },
};

export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, options);
}

/** The same parser and writer with nothing taken out: how `html` reads, written again. */
const everything: sanitizeHtml.IOptions = {
  allowedTags: false,
  allowedAttributes: false,
  allowVulnerableTags: true,
  allowedSchemesAppliedToAttributes: [],
};
const keeping: sanitizeHtml.IOptions = { ...options, transformTags: {} };

/**
 * Whether the sanitiser keeps all of `html` (the `rel` it adds to links leaving the site aside):
 * what an editor saves is what the page shows (decision 171).
 */
export function keptBySanitiser(html: string): boolean {
  return sanitizeHtml(html, keeping) === sanitizeHtml(html, everything);
}

/** Rich text from content, sanitised on the server before it reaches the page. */
export function RichText(props: { html: string; className?: string }) {
  return (
    <div
      className={props.className}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised with an allow-list just above
      dangerouslySetInnerHTML={{ __html: sanitizeRichText(props.html) }}
    />
  );
}
