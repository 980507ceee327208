import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Img, NARROW_MEDIA, NarrowCropImg } from './picture.tsx';

const image = {
  id: 12,
  width: 1600,
  height: 1200,
  alt: { fi: 'Jauhelihakastiketta lautasella', en: 'Minced meat sauce on a plate' },
  slug: 'jauhelihakastike',
};

describe('Img', () => {
  it('has the preset’s width and height and the alt text of the page language', () => {
    const html = renderToStaticMarkup(<Img image={image} preset="third" lang="en" />);
    expect(html).toBe(
      '<img src="/images/12/jauhelihakastike.jpg?preset=third" width="600" height="400" alt="Minced meat sauce on a plate" loading="lazy" decoding="async"/>',
    );
  });

  it('scales a width preset by the original’s ratio', () => {
    const html = renderToStaticMarkup(<Img image={image} preset="default" lang="fi" />);
    expect(html).toContain('width="1200" height="900"');
    expect(html).toContain('alt="Jauhelihakastiketta lautasella"');
  });

  it('gives decorative images and images without text in the language an empty alt', () => {
    expect(
      renderToStaticMarkup(<Img image={image} preset="hero" lang="fi" decorative />),
    ).toContain('alt=""');
    expect(renderToStaticMarkup(<Img image={image} preset="hero" lang="sv" />)).toContain('alt=""');
  });

  it('loads an eager image at once with high priority', () => {
    const html = renderToStaticMarkup(<Img image={image} preset="hero" lang="fi" eager />);
    expect(html).toContain('loading="eager"');
    expect(html).toContain('fetchPriority="high"');
    expect(html).toContain('width="1920" height="800"');
  });

  it('lists the width presets in srcset when given sizes', () => {
    const html = renderToStaticMarkup(
      <Img image={image} preset="default" lang="fi" sizes="(min-width: 60rem) 50vw, 100vw" />,
    );
    expect(html).toContain(
      'srcSet="/images/12/jauhelihakastike.jpg?preset=default 1200w, /images/12/jauhelihakastike.jpg?preset=medium 800w, /images/12/jauhelihakastike.jpg?preset=small 400w"',
    );
    expect(html).toContain('sizes="(min-width: 60rem) 50vw, 100vw"');
  });

  it('takes a card’s unknown preset as default, so the markup matches what the server sends', () => {
    const html = renderToStaticMarkup(<Img image={image} preset="mystery-preset" lang="fi" />);
    expect(html).toContain('?preset=default');
    expect(html).toContain('width="1200" height="900"');
  });
});

describe('NarrowCropImg', () => {
  it('serves narrow screens their own crop and preloads each crop for its screens only', () => {
    const html = renderToStaticMarkup(
      <html lang="fi">
        <head />
        <body>
          <NarrowCropImg image={image} preset="hero" narrowPreset="hero-narrow" lang="fi" eager />
        </body>
      </html>,
    );
    expect(html).toContain(
      `<picture><source media="${NARROW_MEDIA}" srcSet="/images/12/jauhelihakastike.jpg?preset=hero-narrow" width="720" height="960"/><img src="/images/12/jauhelihakastike.jpg?preset=hero" width="1920" height="800"`,
    );
    const preloads = html.match(/<link rel="preload"[^>]*>/g) ?? [];
    expect(preloads).toHaveLength(2);
    expect(preloads[0]).toContain('preset=hero-narrow');
    expect(preloads[0]).toContain(`media="${NARROW_MEDIA}"`);
    expect(preloads[1]).toContain('preset=hero"');
    expect(preloads[1]).toContain('media="(min-width: 40.0625em)"');
    for (const link of preloads) expect(link).toContain('fetchPriority="high"');
  });

  it('preloads nothing for a picture that is not eager', () => {
    const html = renderToStaticMarkup(
      <html lang="fi">
        <head />
        <body>
          <NarrowCropImg image={image} preset="hero" narrowPreset="hero-narrow" lang="fi" />
        </body>
      </html>,
    );
    expect(html).not.toContain('rel="preload"');
    expect(html).toContain('loading="lazy"');
  });
});
