import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { serverT } from '../../../i18n/catalogues.ts';
import { IslandRoot } from '../../../render/island-root.tsx';
import { ProductGallery } from './product-gallery.tsx';

const image = (id: number) => ({ id, width: 1200, height: 1200, alt: `Pihvi ${id}` });

describe('the server HTML of the product picture carousel', () => {
  it('is a strip of every picture, labelled Kuva N / M, the first loaded at once, no buttons', () => {
    const html = renderToString(
      <IslandRoot lang="fi" t={serverT('fi')}>
        <ProductGallery images={[image(1), image(2), image(3)]} />
      </IslandRoot>,
    );
    expect(html).toContain('aria-roledescription="carousel"');
    expect(html).toContain('aria-label="Tuotekuvat"');
    expect(html.match(/aria-roledescription="slide"/g)).toHaveLength(3);
    for (const n of [1, 2, 3]) {
      expect(html).toContain(`aria-label="Kuva ${n} / 3"`);
      expect(html).toContain(`alt="Pihvi ${n}"`);
    }
    expect(html.match(/loading="eager"/g)).toHaveLength(1);
    expect(html.match(/loading="lazy"/g)).toHaveLength(2);
    // Without script every picture is reachable in the focusable strip; the buttons and the
    // counter come with the island.
    expect(html).toContain('tabindex="0"');
    expect(html).not.toContain('inert');
    expect(html).not.toContain('<button');
    expect(html).not.toContain('Kuva 1 / 3</p>');
  });
});
