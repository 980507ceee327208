import { describe, expect, it } from 'vitest';
import { keptBySanitiser, sanitizeRichText } from './rich-text.server.tsx';

describe('rich text the sanitiser keeps whole', () => {
  it('is what the editor writes: paragraphs, headings, lists, emphasis, links, breaks', () => {
    for (const html of [
      '',
      '<p>Hei <strong>maailma</strong> ja <em>kaikki</em>.</p>',
      '<h2>Otsikko</h2><ul><li>yksi</li></ul><ol><li>kaksi</li></ol><blockquote><p>lainaus</p></blockquote>',
      '<p>rivi<br>toinen</p>',
      '<p><a href="https://kattaus.example/">linkki</a> ja <a href="/tuotteet">polku</a></p>',
      '<p>a &amp; b &lt; c, ääkköset "lainaus"</p>',
    ]) {
      expect(keptBySanitiser(html), html).toBe(true);
    }
  });

  it('is not anything it would drop or change', () => {
    for (const html of [
      '<p>x<script>alert(1)</script></p>',
      '<p onclick="alert(1)">x</p>',
      '<p><a href="javascript:alert(1)">x</a></p>',
      '<img src="x">',
      '<div>x</div>',
      '<p style="color:red">x</p>',
      '<p><a href="https://x.example" target="_blank">x</a></p>',
    ]) {
      expect(keptBySanitiser(html), html).toBe(false);
      expect(sanitizeRichText(html)).not.toBe(html);
    }
  });
});
