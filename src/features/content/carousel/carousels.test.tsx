import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { serverT } from '../../../i18n/catalogues.ts';
import { IslandRoot } from '../../../render/island-root.tsx';
import { HeroCarousel } from './hero-carousel.tsx';
import { ImageCarousel } from './image-carousel.tsx';

const image = (id: number) => ({ id, width: 1920, height: 800, alt: `Kuva ${id}` });

function render(node: React.ReactNode): string {
  return renderToString(
    <IslandRoot lang="fi" t={serverT('fi')}>
      {node}
    </IslandRoot>,
  );
}

describe('the server HTML of the carousels', () => {
  it('hero: every slide in a focusable strip, labelled, no buttons before script', () => {
    const html = render(
      <HeroCarousel
        slides={[
          { image: image(1), html: '<h2>Yksi</h2>', textAlignment: 'Center', darken: true },
          {
            image: image(2),
            html: '<h2>Kaksi</h2>',
            textAlignment: 'Left',
            darken: false,
            classes: 'kampanja',
            link: '/tuotteet',
          },
        ]}
      />,
    );
    expect(html).toContain('aria-roledescription="carousel"');
    expect(html).toContain('aria-label="Nostot"');
    expect(html.match(/aria-roledescription="slide"/g)).toHaveLength(2);
    expect(html).toContain('aria-label="1 / 2"');
    expect(html).toContain('aria-label="2 / 2"');
    expect(html).toContain('<h2>Yksi</h2>');
    expect(html).toContain('<h2>Kaksi</h2>');
    expect(html).toContain('kampanja');
    expect(html).toMatch(/<a[^>]+href="\/tuotteet"[^>]*>Lue lisää<\/a>/);
    expect(html).toContain('tabindex="0"');
    expect(html).toContain('aria-live="polite"');
    // Nothing hidden or inert: without script every slide is reachable.
    expect(html).not.toContain('inert');
    expect(html).not.toContain('data-enhanced');
    expect(html).not.toContain('<button');
    // The first picture loads at once, the second lazily.
    expect(html).toMatch(/preset=hero[^>]+loading="eager"/);
    expect(html).toMatch(/images\/2\/[^>]+loading="lazy"/);
  });

  it('image carousel: slides with captions, the controls row reserved but empty', () => {
    const html = render(
      <ImageCarousel
        slides={[
          { image: image(1), imgText: 'Broileripasta' },
          { image: image(2), imgText: 'Kanakeitto' },
          { image: null, imgText: '' },
        ]}
      />,
    );
    expect(html).toContain('aria-label="Kuvakaruselli"');
    expect(html.match(/aria-roledescription="slide"/g)).toHaveLength(3);
    expect(html).toContain('<figcaption');
    expect(html).toContain('Broileripasta');
    expect(html).toContain('alt="Kuva 1"');
    expect(html).toContain('preset=three-by-two-crop');
    expect(html).not.toContain('<button');
    expect(html).toContain('aria-live="polite"');
  });
});

describe('the hero block', () => {
  it('gives slide links the page language prefix', async () => {
    const { Hero } = await import('../components/hero.tsx');
    const { PageProvider } = await import('../../../render/page-context.tsx');
    const { IslandScope } = await import('../../../render/island.server.tsx');
    const { HeroCarousel } = await import('./hero-carousel.tsx');
    const { getSite } = await import('../../../sites/registry.ts');
    const site = getSite('sibylla');
    if (!site) throw new Error('sibylla is a site');
    const hero = (lang: 'fi' | 'en') =>
      renderToString(
        <PageProvider
          value={{ site, lang, t: serverT(lang), path: '/', siteHref: (id) => `/${id}` }}
        >
          <IslandScope components={{ 'hero-carousel': HeroCarousel }}>
            <Hero
              slides={[
                { imageId: 1, text: '<p>Yksi</p>', textAlignment: 'Center', darken: false },
                {
                  imageId: 2,
                  text: '<p>Kaksi</p>',
                  textAlignment: 'Left',
                  darken: false,
                  link: '/tuotteet',
                },
              ]}
              images={new Map([[2, image(2)]])}
            />
          </IslandScope>
        </PageProvider>,
      );
    expect(hero('fi')).toMatch(/href="\/tuotteet"/);
    expect(hero('en')).toMatch(/href="\/en\/tuotteet"/);
  });
});
