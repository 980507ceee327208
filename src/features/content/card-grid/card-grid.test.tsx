import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { serverT } from '../../../i18n/catalogues.ts';
import { IslandRoot } from '../../../render/island-root.tsx';
import { localLink } from '../../../sites/resolve.ts';
import { type CardType, cardTypes } from '../blocks.ts';
import { presetOf } from '../components/card.tsx';
import { CardGridIsland, type CardGridProps } from './card-grid-island.tsx';
import { recipeCard, toCardDto } from './cards.ts';
import type { CardDto } from './schemas.ts';

const image = { id: 7, width: 1200, height: 900, alt: 'Kuva' };

function cardOf(type: CardType, n = 1): CardDto {
  return {
    type,
    link: `/kortti-${n}`,
    header: `Kortti ${n}`,
    image,
    ctaButton: 'Katso',
    likeCount: 12,
    totalTime: 75,
    cisionTextType: 'Pörssitiedote',
    publishDate: '2026-05-04T09:00:00.000Z',
    productCode: '400123',
    gtinCode: '6410405082657',
    valoCode: 'V123',
  };
}

function render(props: Partial<CardGridProps> & { cards: CardDto[] }): string {
  return renderToString(
    <IslandRoot lang="fi" t={serverT('fi')}>
      <CardGridIsland cardType="recipeCard" expandable {...props} />
    </IslandRoot>,
    { identifierPrefix: 'card-grid-0-' },
  );
}

/** The markup of one card, with the parts of its own that vary by type. */
function cardMarkup(type: CardType): string {
  const html = render({ cards: [cardOf(type)], expandable: false });
  const match = /<article[\s\S]*<\/article>/.exec(html);
  if (!match) throw new Error(`no card for ${type}`);
  return match[0];
}

describe('cards', () => {
  it('render every card type of the spec in a shape of its own', () => {
    const shapes = new Set<string>();
    const classes = new Set<string>();
    for (const type of cardTypes) {
      const html = cardMarkup(type);
      expect(html).toContain(`data-card-type="${type}"`);
      // The card's own class besides the common one.
      classes.add(/<article class="([^"]+)"/.exec(html)?.[1] ?? '');
      expect(html).toMatch(/<h3[^>]*><a href="\/kortti-1"[^>]*>Kortti 1<\/a><\/h3>/);
      expect(html).toContain(`preset=${presetOf[type]}`);
      // The structure without the type's class name and its own preset: which parts it shows.
      shapes.add(
        `${html
          .replace(/class="[^"]*"/g, '')
          .replace(/preset=[a-z-]+/g, '')
          .replace(/(width|height)="\d+"/g, '')}|${type.startsWith('headerImage') ? type : ''}`,
      );
    }
    // Picture cards differ by their preset and shape; the others by what they show.
    expect(shapes.size).toBeGreaterThanOrEqual(7);
    expect(classes.size).toBe(cardTypes.length);
    for (const name of classes) expect(name.trim().split(/\s+/)).toHaveLength(2);
  });

  it('show a recipe’s time as Xh Ymin and its likes', () => {
    for (const type of ['recipeCard', 'jyvabroilerRecipeCard', 'ridderheimsCard'] as const) {
      const html = cardMarkup(type);
      expect(html).toContain('1h 15min');
      expect(html).toContain('12 tykkäystä');
      expect(html).toContain('Valmistusaika');
    }
    expect(
      render({
        cards: [{ ...cardOf('recipeCard'), totalTime: 45 }],
        expandable: false,
      }),
    ).toContain('45min');
  });

  it('show codes on Mestari Forsman’s product card, type and date on releases', () => {
    const mf = cardMarkup('MFProductCard');
    expect(mf).toMatch(/<dt>Tuotekoodi<\/dt><dd>400123<\/dd>/);
    expect(mf).toMatch(/<dt>EAN<\/dt><dd>6410405082657<\/dd>/);
    expect(mf).toContain('preset=product-thumbnail-medium');
    const cision = cardMarkup('cisionCard');
    expect(cision).toContain('Pörssitiedote');
    expect(cision).toContain('<time dateTime="2026-05-04T09:00:00.000Z">4.5.2026</time>');
    expect(cardMarkup('mynewsdeskCard')).toContain('4.5.2026');
  });

  it('leave a picture whose alt only repeats the heading without alt text', () => {
    const altOf = (header: string, alt: string) => {
      const html = render({
        cards: [{ ...cardOf('recipeCard'), header, image: { ...image, alt } }],
      });
      return /<img[^>]* alt="([^"]*)"/.exec(html)?.[1];
    };
    // The heading itself, or a part of it (a pack's name without its weight): decorative.
    expect(altOf('Jauhelihaperunalaatikko', 'Jauhelihaperunalaatikko')).toBe('');
    expect(altOf('Hodarimakkara chili 400 g', 'Hodarimakkara chili')).toBe('');
    expect(altOf('Lasagne', 'lasagne.')).toBe('');
    // A description of what the picture shows stays.
    expect(altOf('Lasagne', 'Lasagne uunivuoassa basilikan kanssa')).toBe(
      'Lasagne uunivuoassa basilikan kanssa',
    );
    expect(altOf('Hodarimakkara chili 400 g', 'Makkaroita grillissä')).toBe('Makkaroita grillissä');
  });

  it('take a card’s own image preset first', () => {
    const html = render({
      cards: [{ ...cardOf('recipeCard'), imagePreset: 'card-wide' }],
      expandable: false,
    });
    expect(html).toContain('preset=card-wide');
    expect(html).not.toContain('preset=three-by-two-crop');
  });
});

describe('card grid markup', () => {
  const sixteen = Array.from({ length: 16 }, (_, i) => cardOf('recipeCard', i + 1));

  it('has every card in the HTML, collapses by CSS and offers the expand link where needed', () => {
    const html = render({ cards: sixteen, columns: 4 });
    expect(html.match(/<article/g)).toHaveLength(16);
    expect(html).not.toContain('hidden=""');
    const list = /<ul id="(cards-[^"]+)" class="([^"]+)"/.exec(html);
    expect(list?.[2]).toMatch(/collapsed/);
    expect(html).toMatch(new RegExp(`<a href="#${list?.[1]}"[^>]*>Näytä lisää</a>`));
    expect(html).toMatch(/class="[^"]*moreRow[^"]*moreXs[^"]*moreSm[^"]*moreMd[^"]*moreLg/);
  });

  it('marks only the widths where two rows do not hold every card', () => {
    const html = render({ cards: sixteen.slice(0, 8), columns: 4 });
    const row = /<div class="([^"]*moreRow[^"]*)"/.exec(html)?.[1] ?? '';
    expect(row).toMatch(/moreXs/);
    expect(row).toMatch(/moreMd/);
    expect(row).not.toMatch(/moreLg/);
    expect(render({ cards: sixteen.slice(0, 2) })).not.toContain('Näytä lisää');
  });

  it('shows every card without collapsing when not expandable', () => {
    const html = render({ cards: sixteen, expandable: false });
    expect(html).not.toContain('Näytä lisää');
    expect(html).not.toMatch(/collapsed/);
  });

  it('labels its dropdown and has a live region for the count', () => {
    const html = render({
      header: 'Suositut reseptit',
      cards: sixteen,
      dropdown: {
        label: 'Ruokalaji',
        items: [
          { Id: 5, Label: 'Keitot' },
          { Id: 6, Label: 'Kastikkeet' },
        ],
      },
    });
    const id = /<select id="([^"]+)"/.exec(html)?.[1];
    expect(id).toBeTruthy();
    expect(html).toContain(`<label for="${id}">Ruokalaji</label>`);
    expect(html).toMatch(
      /<option value="" selected="">Kaikki<\/option><option value="5">Keitot<\/option><option value="6">Kastikkeet<\/option>/,
    );
    expect(html).toMatch(/<p role="status"[^>]*><\/p>/);
    expect(html).toMatch(/<section[^>]*aria-labelledby="([^"]+)"[\s\S]*<h2 id="\1">Suositut/);
  });
});

describe('card links', () => {
  it('put stored paths under the page’s language prefix, nothing else', () => {
    expect(localLink('/reseptit/keitto', '')).toBe('/reseptit/keitto');
    expect(localLink('/recipes/soup', '/en')).toBe('/en/recipes/soup');
    expect(localLink('https://example.com/x', '/en')).toBe('https://example.com/x');
    expect(localLink('//cdn.example/x', '/en')).toBe('//cdn.example/x');
    const card = recipeCard(
      { path: '/recipes/soup', title: 'Soup', totalTimeMinutes: 30, imageId: 7, likeCount: 2 },
      { type: 'recipeCard' },
    );
    expect(toCardDto(card, new Map([[7, image]]), '/en')).toEqual({
      type: 'recipeCard',
      link: '/en/recipes/soup',
      header: 'Soup',
      image,
      likeCount: 2,
      totalTime: 30,
    });
  });
});
