import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Img } from './picture.tsx';

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
