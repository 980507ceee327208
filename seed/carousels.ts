import type { Block, Card, CardType } from '../src/features/content/blocks.ts';
import type { Lang } from '../src/sites/types.ts';
import type { SiteLang } from './context.ts';
import type { PageRow, ProductRow } from './model.ts';
import { recipeCard } from './pages.ts';

/**
 * The carousels of the home pages (spec §4): the newest recipes as a card carousel on every site
 * with recipes, and on the corporate sites the group's brands as the brand-logo carousel.
 */

const newestRecipes: Record<Lang, string> = {
  fi: 'Uusimmat reseptit',
  sv: 'Nyaste recepten',
  en: 'Latest recipes',
};

/** Recipes in the card carousel: enough for three groups of four. */
const CAROUSEL_RECIPES = 10;

export function carouselBlocks(s: SiteLang, all: readonly PageRow[]): Block[] {
  const blocks: Block[] = [];
  if (s.recipes.length > 4) {
    const recipes = [...s.recipes]
      .sort(
        (a, b) => (b.publishedAt?.getTime() ?? 0) - (a.publishedAt?.getTime() ?? 0) || b.id - a.id,
      )
      .slice(0, CAROUSEL_RECIPES);
    blocks.push({
      type: 'card-carousel',
      header: newestRecipes[s.lang],
      cardType: s.profile.cards.recipe,
      cards: recipes.map((r) => recipeCard(s, r)),
    });
  }
  blocks.push(...cardTypeBlocks(s));
  if (s.site.corporate) {
    const brands = all.filter((p) => p.translationKey.includes('/brand:'));
    if (brands.length) {
      blocks.push({
        type: 'brand-logo-carousel',
        header: s.v.headings.brandLogos,
        cards: brands.map((p) => ({
          link: p.path,
          header: p.title,
          ...(p.teaserImageId ? { imageId: p.teaserImageId } : {}),
        })),
      });
    }
  }
  return blocks;
}

/** A product of the site as a card of one of the product card types, with its shop fields. */
function productTypeCard(p: ProductRow, type: CardType, ctaButton?: string): Card {
  const card: Card = { type, link: p.path, header: p.name, productCode: p.code };
  const imageId = p.imageIds?.[0];
  if (imageId) card.imageId = imageId;
  if (ctaButton) card.ctaButton = ctaButton;
  if (p.gtin) card.gtinCode = p.gtin;
  if (p.valoCode) card.valoCode = p.valoCode;
  if (typeof p.priceCents === 'number') card.price = p.priceCents;
  if (typeof p.pricePerKgCents === 'number') card.pricePerKilo = p.pricePerKgCents;
  if (typeof p.svhPriceCents === 'number') card.svhPrice = p.svhPriceCents;
  if (typeof p.discountPercentage === 'number' && p.discountPercentage > 0)
    card.discountPercentage = p.discountPercentage;
  if (p.stock !== undefined) card.stock = p.stock;
  if (p.isGiftCard) card.isGiftCard = true;
  return card;
}

const headings = {
  shop: { fi: 'Lihakaupan valikoimaa', sv: 'Ur köttbutikens sortiment', en: 'From the meat shop' },
  campaigns: { fi: 'Kampanjat', sv: 'Kampanjer', en: 'Campaigns' },
  foodService: {
    fi: 'Ammattikeittiön tuotteita',
    sv: 'Produkter för storkök',
    en: 'For professional kitchens',
  },
  products: { fi: 'Tuotteitamme', sv: 'Våra produkter', en: 'Our products' },
  social: { fi: 'Somessa', sv: 'I sociala medier', en: 'On social media' },
  giftCards: { fi: 'Lahjakortit', sv: 'Presentkort', en: 'Gift cards' },
} as const satisfies Record<string, Record<Lang, string>>;

/**
 * The card types of spec §3 that belong to one kind of site, as a card carousel on its home page:
 * the shop's products and campaigns, food service's products with their Valo ordering link,
 * the Swedish brands' and the export site's products, and a brand's social media posts.
 */
function cardTypeBlocks(s: SiteLang): Block[] {
  const { site, lang } = s;
  const products = s.products.filter((p) => !p.isGiftCard).slice(0, 8);
  const carousel = (header: string, cardType: CardType, cards: Card[]): Block[] =>
    cards.length ? [{ type: 'card-carousel', header, cardType, cards }] : [];
  const grid = (header: string, cardType: CardType, cards: Card[]): Block[] =>
    cards.length ? [{ type: 'card-grid', header, columns: 3, cardType, cards }] : [];
  if (site.id === 'lihakauppa') {
    const priced = products.filter((p) => typeof p.priceCents === 'number');
    const discounted = priced.filter((p) => typeof p.svhPriceCents === 'number').slice(0, 3);
    return [
      ...carousel(
        headings.shop[lang],
        'lkProductCard',
        priced.map((p) => productTypeCard(p, 'lkProductCard', s.v.headings.toProduct)),
      ),
      ...(discounted.length
        ? [
            {
              type: 'card-grid' as const,
              header: headings.campaigns[lang],
              columns: 3 as const,
              cardType: 'lkCampaignCard' as const,
              cards: discounted.map((p) =>
                productTypeCard(p, 'lkCampaignCard', s.v.headings.toProduct),
              ),
            },
          ]
        : []),
      // The gift cards as a grid of `lkProductCard`s, marked as gift cards, with the buy control.
      ...grid(
        headings.giftCards[lang],
        'lkProductCard',
        s.products
          .filter((p) => p.isGiftCard && typeof p.priceCents === 'number')
          .map((p) => productTypeCard(p, 'lkProductCard', s.v.headings.toProduct)),
      ),
    ];
  }
  if (site.id === 'ammattilaiset') {
    return carousel(
      headings.foodService[lang],
      'FSProductCard',
      products.filter((p) => p.valoCode).map((p) => productTypeCard(p, 'FSProductCard')),
    );
  }
  if (site.id === 'export') {
    return carousel(
      headings.products[lang],
      'exportProductCard',
      products.map((p) => productTypeCard(p, 'exportProductCard', s.v.headings.toProduct)),
    );
  }
  if (site.languages[0] === 'sv' && !site.corporate && site.id !== 'foodservicese') {
    return carousel(
      headings.products[lang],
      'productCardSe',
      products.map((p) => productTypeCard(p, 'productCardSe', s.v.headings.toProduct)),
    );
  }
  if (site.id === 'sibylla') return socialCards(s);
  return [];
}

const posts: Record<Lang, string[]> = {
  fi: [
    'Kesän grillikausi on täällä! Kokeile uutta chilimarinoitua nakkia ja kerro meille, mikä on sinun lempilisukkeesi grillin äärellä. Parhaat vinkit jaamme ensi viikolla.',
    'Tiesitkö, että hodarin sämpylä kannattaa lämmittää kevyesti ennen täyttämistä? Pieni teko, iso ero.',
    'Katso videolta, miten syntyy täydellinen hodari kolmessa minuutissa – kurkut, sinappi ja paahdettu sipuli mukaan, ja nauti heti.',
  ],
  sv: [
    'Grillsäsongen är här! Testa vår nya chilimarinerade korv och berätta vilket tillbehör du gillar mest vid grillen. Vi delar de bästa tipsen nästa vecka.',
    'Visste du att korvbrödet blir godare om du värmer det lätt innan du fyller det? En liten sak, stor skillnad.',
    'Se i videon hur en perfekt korv med bröd blir klar på tre minuter – gurka, senap och rostad lök på, och njut direkt.',
  ],
  en: [
    'Grilling season is here! Try our new chilli-marinated sausage and tell us which side you like best by the grill. We will share the best tips next week.',
    'Did you know that a hot dog bun is better warmed lightly before you fill it? A small thing, a big difference.',
    'Watch the video: a perfect hot dog in three minutes – pickles, mustard and crispy onions on top, and enjoy it straight away.',
  ],
};

function socialCards(s: SiteLang): Block[] {
  const pictures = s.recipes.flatMap((r) => (r.imageId ? [r.imageId] : [])).slice(0, 4);
  const networks = ['instagram', 'facebook', 'youtube'] as const;
  const cards: Card[] = posts[s.lang].map((body, i) => {
    const network = networks[i % networks.length] ?? 'instagram';
    const card: Card = {
      type: 'socialMediaCard',
      link: `https://www.${network}.com/sibylla`,
      header: body.split(/[.!?]/)[0] ?? body,
      body,
      socialNetwork: network,
      mediaType: network === 'youtube' ? 'VIDEO' : 'IMAGE',
      profileUrl: `https://www.${network}.com/sibylla`,
      daysSincePosted: [2, 9, 23][i] ?? 1,
      likeCount: [412, 96, 1204][i] ?? 0,
      commentCount: [37, 8, 112][i] ?? 0,
    };
    const picture = pictures[i];
    if (picture) card.imageId = picture;
    if (pictures[3]) card.profileImageId = pictures[3];
    return card;
  });
  return [
    {
      type: 'card-carousel',
      header: headings.social[s.lang],
      cardType: 'socialMediaCard',
      cards,
      cardsPerView: 3,
    },
  ];
}
