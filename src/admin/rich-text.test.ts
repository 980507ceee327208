import type { DOMOutputSpec, Mark, Node } from '@tiptap/pm/model';
import { getSchema } from '@tiptap/react';
import { describe, expect, it } from 'vitest';
import { sanitizeRichText } from '../render/rich-text.server.tsx';
import { allowedHref, normaliseRichText, richTextExtensions } from './rich-text.ts';

/**
 * The back office's rich-text editor produces only what the public pages' sanitiser keeps
 * (decision 166): every node and mark of its schema, written out by the schema's own `toDOM`
 * specs as a browser writes the DOM (`innerHTML`'s escaping), normalised as the editor hands it
 * to the form, passes `sanitizeRichText` unchanged. The browser test does the same with what
 * Chromium's TipTap writes for typed text, bold and a link.
 */
const schema = getSchema(richTextExtensions());

const text = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\u00a0/g, '&nbsp;');
const attr = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/\u00a0/g, '&nbsp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
const VOID = new Set(['br']);

/** A DOM output spec as HTML, `hole` where its content goes. */
function spec(out: DOMOutputSpec, hole: string): string {
  if (typeof out === 'string') return text(out);
  if (!Array.isArray(out)) throw new Error('a spec that is a DOM node');
  const [tag, ...rest] = out as [string, ...unknown[]];
  let attrs = '';
  let children = rest;
  const first = rest[0];
  if (first !== null && typeof first === 'object' && !Array.isArray(first)) {
    for (const [name, value] of Object.entries(first as Record<string, unknown>)) {
      if (value !== null && value !== undefined) attrs += ` ${name}="${attr(String(value))}"`;
    }
    children = rest.slice(1);
  }
  if (VOID.has(tag)) return `<${tag}${attrs}>`;
  const inner = children
    .map((child) => (child === 0 ? hole : spec(child as DOMOutputSpec, hole)))
    .join('');
  return `<${tag}${attrs}>${inner}</${tag}>`;
}

function markSpec(mark: Mark, inner: string): string {
  const toDOM = mark.type.spec.toDOM;
  if (!toDOM) throw new Error(`${mark.type.name} has no toDOM`);
  return spec(toDOM(mark, true) as DOMOutputSpec, inner);
}

function serialise(node: Node): string {
  if (node.isText) {
    return [...node.marks]
      .reverse()
      .reduce((inner, mark) => markSpec(mark, inner), text(node.text ?? ''));
  }
  const content: string[] = [];
  node.forEach((child) => {
    content.push(serialise(child));
  });
  if (node.type.name === 'doc') return content.join('');
  const toDOM = node.type.spec.toDOM;
  if (!toDOM) throw new Error(`${node.type.name} has no toDOM`);
  return spec(toDOM(node) as DOMOutputSpec, content.join(''));
}

const t = (value: string, marks: { type: string; attrs?: object }[] = []) => ({
  type: 'text',
  text: value,
  ...(marks.length ? { marks } : {}),
});
const p = (...content: object[]) => ({ type: 'paragraph', content });

/** A document with every node and mark the editor has, and text that needs escaping. */
const everything = {
  type: 'doc',
  content: [
    { type: 'heading', attrs: { level: 2 }, content: [t('Otsikko 2')] },
    { type: 'heading', attrs: { level: 3 }, content: [t('Otsikko 3')] },
    { type: 'heading', attrs: { level: 4 }, content: [t('Otsikko 4')] },
    p(
      t('Tavallista, '),
      t('lihavoitua', [{ type: 'bold' }]),
      t(', '),
      t('kursiivia', [{ type: 'italic' }]),
      t(', '),
      t('molempia', [{ type: 'bold' }, { type: 'italic' }]),
      t(' & <merkit> "lainaus" \'heitto\'\u00a0sitova väli'),
      { type: 'hardBreak' },
      t('rivinvaihdon jälkeen'),
    ),
    p(
      t('sivun linkki', [{ type: 'link', attrs: { href: '/reseptit?q=kana&sivu=2' } }]),
      t(' '),
      t('ulos', [{ type: 'link', attrs: { href: 'https://example.fi/a?b=1&c=2' } }]),
      t(' '),
      t('lihava linkki', [
        { type: 'bold' },
        { type: 'link', attrs: { href: 'http://example.fi' } },
      ]),
      t(' '),
      t('posti', [{ type: 'link', attrs: { href: 'mailto:info@example.fi' } }]),
      t(' '),
      t('puhelin', [{ type: 'link', attrs: { href: 'tel:+358401234567' } }]),
    ),
    {
      type: 'bulletList',
      content: [
        { type: 'listItem', content: [p(t('yksi'))] },
        {
          type: 'listItem',
          content: [
            p(t('kaksi')),
            { type: 'orderedList', content: [{ type: 'listItem', content: [p(t('sisäkkäin'))] }] },
          ],
        },
      ],
    },
    {
      type: 'orderedList',
      attrs: { start: 3, type: 'a' },
      content: [{ type: 'listItem', content: [p(t('kolmas'))] }],
    },
    { type: 'blockquote', content: [p(t('Lainattu kappale'))] },
    { type: 'paragraph' },
  ],
};

describe('the rich-text editor’s schema', () => {
  it('has only the nodes and marks the sanitiser keeps', () => {
    expect(Object.keys(schema.nodes).sort()).toEqual(
      [
        'blockquote',
        'bulletList',
        'doc',
        'hardBreak',
        'heading',
        'listItem',
        'orderedList',
        'paragraph',
        'text',
      ].sort(),
    );
    expect(Object.keys(schema.marks).sort()).toEqual(['bold', 'italic', 'link']);
  });

  it('writes every node and mark as the sanitiser keeps it, unchanged', () => {
    const doc = schema.nodeFromJSON(everything);
    const html = normaliseRichText(serialise(doc));
    // Every kind is there (the test would prove nothing of a kind it did not write).
    for (const tag of [
      '<h2>',
      '<h3>',
      '<h4>',
      '<strong>',
      '<em>',
      '<br />',
      '<ul>',
      '<ol>',
      '<li>',
      '<blockquote>',
      '<a href="/reseptit?q=kana&amp;sivu=2">',
      'rel="noopener noreferrer"',
      '<a href="mailto:',
      '<a href="tel:',
      '&lt;merkit&gt;',
    ]) {
      expect(html).toContain(tag);
    }
    // A numbered list starts at 1: its start and type are not written.
    expect(html).not.toMatch(/<ol [^>]/);
    expect(sanitizeRichText(html)).toBe(html);
  });

  it('refuses links the sanitiser would not keep', () => {
    for (const bad of [
      'javascript:alert(1)',
      '//evil.example',
      'data:text/html,x',
      'ftp://x',
      '/a b',
      '/a"b',
    ]) {
      expect(allowedHref(bad), bad).toBe(false);
    }
    for (const good of ['/reseptit', 'https://example.fi', 'mailto:a@b.fi', 'tel:+358']) {
      expect(allowedHref(good), good).toBe(true);
    }
    // A link with an address the editor does not allow is written without it.
    const doc = schema.nodeFromJSON({
      type: 'doc',
      content: [p(t('x', [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }]))],
    });
    const html = normaliseRichText(serialise(doc));
    expect(html).toBe('<p><a href="#">x</a></p>');
    expect(sanitizeRichText(html)).toBe(html);
  });
});
