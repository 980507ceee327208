import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { serverT } from '../../../i18n/catalogues.ts';
import { IslandRoot } from '../../../render/island-root.tsx';
import { cardSchema } from '../blocks.ts';
import type { CardDto } from '../card-grid/schemas.ts';
import { Card, SOCIAL_BODY_CHARS, truncateBody, valoOrderUrl } from './card.tsx';

const image = { id: 7, width: 600, height: 600, alt: 'Kuva' };

function html(card: CardDto): string {
  return renderToString(
    <IslandRoot lang="fi" t={serverT('fi')}>
      <Card card={card} />
    </IslandRoot>,
  );
}

describe('the card types of spec §3', () => {
  it('lkProductCard: price, regular price, price per kilo, discount, sold out, gift card', () => {
    const markup = html({
      type: 'lkProductCard',
      link: '/tuotteet/pihvi',
      header: 'Pihvi',
      image,
      price: 1290,
      svhPrice: 1590,
      pricePerKilo: 3225,
      discountPercentage: 19,
      stock: 0,
      isGiftCard: false,
    });
    expect(markup).toContain('12,90\u00a0€');
    expect(markup).toContain('Ovh 15,90\u00a0€');
    expect(markup).toContain('32,25\u00a0€/kg');
    expect(markup).toContain('-19 %');
    expect(markup).toContain('Tuote on juuri nyt loppuunmyyty');
    expect(html({ type: 'lkProductCard', link: '/x', header: 'X', stock: null })).not.toContain(
      'loppuunmyyty',
    );
  });

  it('FSProductCard links its Valo code to the ordering site', () => {
    const markup = html({ type: 'FSProductCard', link: '/x', header: 'X', valoCode: 'V 12' });
    expect(markup).toContain(`href="${valoOrderUrl('V 12')}"`);
    expect(valoOrderUrl('V 12')).toContain('V%2012');
    expect(markup).toContain('Tilaa tuote (Valo V 12)');
  });

  it('socialMediaCard: profile, days since posted, video, likes and comments, body cut at 120 with show more', () => {
    const body = `${'Sana '.repeat(40)}loppu`;
    const markup = html({
      type: 'socialMediaCard',
      link: 'https://www.instagram.com/sibylla',
      header: 'Postaus',
      image,
      body,
      socialNetwork: 'instagram',
      mediaType: 'VIDEO',
      profileUrl: 'https://www.instagram.com/sibylla',
      profileImage: image,
      daysSincePosted: 3,
      likeCount: 41,
      commentCount: 5,
    });
    expect(markup).toContain('Instagram');
    expect(markup).toContain('3 pv sitten');
    expect(markup).toContain('>Video<');
    expect(markup).toContain('41 tykkäystä');
    expect(markup).toContain('5 kommenttia');
    expect(markup).toContain('<summary>Näytä lisää</summary>');
    const { head, rest } = truncateBody(body);
    expect(head.length).toBeLessThanOrEqual(SOCIAL_BODY_CHARS);
    expect(`${head} ${rest}`).toBe(body.replace(/\s+/g, ' '));
    expect(truncateBody('lyhyt')).toEqual({ head: 'lyhyt', rest: '' });
    const short = html({
      type: 'socialMediaCard',
      link: 'https://x.example',
      header: 'P',
      body: 'lyhyt',
    });
    expect(short).not.toContain('<summary>');
  });

  it('refuses bad card fields', () => {
    const base = { type: 'lkProductCard', link: '/x', header: 'X' };
    expect(cardSchema.safeParse({ ...base, price: -1 }).success).toBe(false);
    expect(cardSchema.safeParse({ ...base, discountPercentage: 100 }).success).toBe(false);
    expect(cardSchema.safeParse({ ...base, socialNetwork: 'myspace' }).success).toBe(false);
    expect(cardSchema.safeParse({ ...base, profileUrl: 'javascript:alert(1)' }).success).toBe(
      false,
    );
    expect(cardSchema.safeParse({ ...base, stock: null, price: 100 }).success).toBe(true);
  });
});
