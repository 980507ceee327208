import { z } from 'zod';
import { blockFormIds } from '../forms/index.ts';

/**
 * The blocks a page is made of. Each type has a schema; content is validated with `pageBlocks`
 * on every write (the seed included), and rendering trusts what the database holds.
 */

export const cardTypes = [
  'headerImageSquare',
  'headerImageTall',
  'headerImageWide',
  'headerImageXtraTall',
  'recipeCard',
  'jyvabroilerRecipeCard',
  'cisionCard',
  'ridderheimsCard',
  'sibyllaCard',
  'MFProductCard',
  'mynewsdeskCard',
  'lkProductCard',
  'lkCampaignCard',
  'FSProductCard',
  'productCardSe',
  'exportProductCard',
  'socialMediaCard',
] as const;
export type CardType = (typeof cardTypes)[number];

/** Money in integer cents; shown as '12,90 €'. */
const cents = z.number().int().min(0).max(100_000_000);

/** The shop's product fields of the product card types (spec §3). */
export function productCardFields() {
  return {
    price: cents.optional(),
    pricePerKilo: cents.optional(),
    /** The regular price beside a discounted one ('Ovh'). */
    svhPrice: cents.optional(),
    discountPercentage: z.number().int().min(1).max(99).optional(),
    /** null: unlimited; 0: sold out. */
    stock: z.number().int().min(0).nullable().optional(),
    isGiftCard: z.boolean().optional(),
  };
}

export const SOCIAL_NETWORKS = ['facebook', 'instagram', 'linkedin', 'youtube', 'tiktok'] as const;

/** The social media card's fields (spec §3). */
export function socialCardFields() {
  return {
    /** VIDEO or another media type (IMAGE, CAROUSEL_ALBUM …). */
    mediaType: z.string().min(1).max(40).optional(),
    profileUrl: z
      .string()
      .regex(/^https?:\/\//)
      .max(500)
      .optional(),
    daysSincePosted: z.number().int().min(0).max(100_000).optional(),
    commentCount: z.number().int().min(0).optional(),
    body: z.string().max(5000).optional(),
    socialNetwork: z.enum(SOCIAL_NETWORKS).optional(),
  };
}

/**
 * Rich text: HTML that the page sanitises when it renders it (`sanitizeRichText`). Marked so that
 * the back office edits it with its rich-text editor (decision 166).
 */
const richText = (max: number) => z.string().max(max).meta({ richText: true });

/** A link inside the site ('/…') or to another site (http(s)). */
const link = z.string().regex(/^(\/|https?:\/\/)/, 'must start with / or http(s)://');
const imageId = z.number().int().positive();

export const cardSchema = z.object({
  type: z.enum(cardTypes),
  link,
  imageId: imageId.optional(),
  header: z.string().min(1).max(200),
  ctaButton: z.string().max(80).optional(),
  likeCount: z.number().int().min(0).optional(),
  /** Minutes; shown as 'Xh Ymin'. */
  totalTime: z.number().int().min(0).optional(),
  imagePreset: z.string().max(40).optional(),
  cisionTextType: z.string().max(80).optional(),
  publishDate: z.string().datetime({ offset: true }).optional(),
  productCode: z.string().max(40).optional(),
  valoCode: z.string().max(40).optional(),
  gtinCode: z.string().max(20).optional(),
  ...productCardFields(),
  ...socialCardFields(),
  /** The social card's profile picture. */
  profileImageId: imageId.optional(),
});
export type Card = z.infer<typeof cardSchema>;

export const heroSlideSchema = z.object({
  imageId,
  /** Rich text (sanitised when rendered). */
  text: richText(4000),
  textAlignment: z.enum(['Center', 'Left', 'Right']).default('Center'),
  darken: z.boolean().default(false),
  classes: z.string().max(200).optional(),
  link: link.optional(),
});
export type HeroSlide = z.infer<typeof heroSlideSchema>;

/** The third brand's carousel: pictures with a caption, autoplay every `autoplaySeconds`. */
export const imageCarouselSchema = z.object({
  type: z.literal('image-carousel'),
  slides: z
    .array(z.object({ imageId, imgText: z.string().max(300).default('') }))
    .min(1)
    .max(10),
  autoplaySeconds: z.number().int().min(2).max(60).default(5),
});
export type ImageCarouselBlock = z.infer<typeof imageCarouselSchema>;

/**
 * The widget blocks of issue 16 (spec shop-and-widgets §2–§9). The data-backed ones (jobs,
 * timeline, map, school materials, page tabs) hold only their settings: the page loader reads
 * their rows for the page's site and language.
 */
const header = z.string().min(1).max(200).optional();
/** A video file: a path on the site or an http(s) address. */
const videoUrl = link;
export const widgetBlockSchemas = [
  /** Open positions (spec §3 Job): title, city, url, application period end, with pagination. */
  z.object({
    type: z.literal('jobs'),
    header,
    pageSize: z.number().int().min(1).max(50).default(10),
  }),
  /** The history timeline: a window of `window` years around the current one. */
  z.object({
    type: z.literal('timeline'),
    header,
    window: z.number().int().min(1).max(25).default(5),
  }),
  /** The map with numbered region buttons (spec §3 Map button). */
  z.object({
    type: z.literal('map'),
    header,
    imageId: imageId.optional(),
    /** Where each numbered region lies: its marker on the drawn map (when there is no image). */
    places: z
      .array(
        z.object({
          number: z.number().int().min(1).max(999),
          lat: z.number().min(-90).max(90),
          lon: z.number().min(-180).max(180),
        }),
      )
      .max(100)
      .optional(),
  }),
  /** A list shown 9 at a time, 5 more per click (spec §4, §9). */
  z.object({
    type: z.literal('expandable-list'),
    header,
    items: z
      .array(z.object({ text: z.string().min(1).max(500), link: link.optional() }))
      .min(1)
      .max(200),
  }),
  /** The pages of this page's section as tabs (spec navigation-and-search §3 item shape). */
  z.object({ type: z.literal('page-tabs') }),
  /** A looping background video with a pause/play control; no autoplay for reduced motion. */
  z.object({
    type: z.literal('hero-video'),
    src: videoUrl,
    posterImageId: imageId.optional(),
    text: z.string().min(1).max(300),
  }),
  /** A picture that opens a video in a dialog. */
  z.object({
    type: z.literal('video-modal'),
    src: videoUrl,
    title: z.string().min(1).max(200),
    imageId: imageId.optional(),
  }),
  /** Figures that count up from 0 (spec §4: 2 s, about 60 steps per second). */
  z.object({
    type: z.literal('number-animation'),
    header,
    items: z
      .array(
        z.object({
          value: z.number().int().min(0).max(1_000_000_000),
          label: z.string().min(1).max(120),
          suffix: z.string().max(20).optional(),
        }),
      )
      .min(1)
      .max(8),
  }),
  /** School material: the page's header with a picture. */
  z.object({
    type: z.literal('school-header'),
    header: z.string().min(1).max(200),
    text: z.string().max(1000).default(''),
    imageId: imageId.optional(),
  }),
  /** School material: a question card that flips to its answer. */
  z.object({
    type: z.literal('flip-card'),
    question: z.string().min(1).max(500),
    answer: z.string().min(1).max(2000),
  }),
  /** School material: slides (spec §3: Url, IsVideo), 500 ms transition. */
  z.object({
    type: z.literal('slider'),
    header,
    slides: z
      .array(z.object({ Url: link, IsVideo: z.boolean(), alt: z.string().max(300).default('') }))
      .min(1)
      .max(20),
  }),
  /**
   * School material: a vote (spec §3: options Title, Text). `voteId` names the vote; each
   * visitor's one vote is counted on the server (`POST /api/school/vote`).
   */
  z.object({
    type: z.literal('school-vote'),
    voteId: z.string().regex(/^[a-z0-9-]{1,60}$/),
    question: z.string().min(1).max(300),
    options: z
      .array(z.object({ Title: z.string().min(1).max(120), Text: z.string().min(1).max(1000) }))
      .min(2)
      .max(6),
  }),
  /** School material: a video on the page. */
  z.object({
    type: z.literal('school-video'),
    src: videoUrl,
    title: z.string().min(1).max(200),
    posterImageId: imageId.optional(),
  }),
  /** School material: the site's materials (spec §3: Material, Url) as links. */
  z.object({ type: z.literal('school-materials'), header }),
] as const;

export const blockSchema = z.discriminatedUnion('type', [
  ...widgetBlockSchemas,
  z.object({ type: z.literal('hero-carousel'), slides: z.array(heroSlideSchema).min(1).max(10) }),
  imageCarouselSchema,
  z.object({
    type: z.literal('card-grid'),
    header: z.string().max(200).optional(),
    columns: z.union([z.literal(2), z.literal(3), z.literal(4)]).optional(),
    cardType: z.enum(cardTypes),
    cards: z.array(cardSchema).max(200),
    /** Label of the dropdown filter ('Rajaa' when not given). */
    dropdownLabel: z.string().min(1).max(80).optional(),
    /**
     * The filter's choices (spec §3 Dropdown item: Id, Label). Each Id is a facet tag of the
     * page's site and language; choosing it shows the products, recipes or news releases with
     * that tag as cards of `cardType` (`GET /api/filtered-cards/{Id}/{cardType}`).
     */
    dropdownItems: z
      .array(z.object({ Id: z.number().int().positive(), Label: z.string().min(1).max(80) }))
      .max(30)
      .optional(),
  }),
  z.object({ type: z.literal('rich-text'), html: richText(100_000) }),
  /** One of the forms (`src/features/forms`); after success it goes to `successPage` if given. */
  z
    .object({
      type: z.literal('form'),
      form: z.enum(blockFormIds),
      successPage: link.optional(),
      /** The export contact form's configured texts (spec forms §2.9): after success, on failure. */
      successMessage: z.string().trim().min(1).max(1000).optional(),
      errorMessage: z.string().trim().min(1).max(1000).optional(),
      /** The `ContentId` the export contact request carries (spec forms §3). */
      contentId: z.number().int().min(0).max(2_147_483_647).optional(),
    })
    .refine(
      (block) =>
        block.form === 'export-contact' ||
        (block.successMessage === undefined &&
          block.errorMessage === undefined &&
          block.contentId === undefined),
      'successMessage, errorMessage and contentId belong to the export-contact form only',
    ),
  /** Cards that move a group at a time (spec §4 card carousel). */
  z.object({
    type: z.literal('card-carousel'),
    header: z.string().max(200).optional(),
    cardType: z.enum(cardTypes),
    cards: z.array(cardSchema).min(1).max(60),
    /** Cards per view on large screens: 4 when not given, 5 when not usable (spec §4). */
    cardsPerView: z.number().int().min(0).max(8).optional(),
  }),
  /** Brand logos 130 px wide, repeated to at least 21, moving by themselves (spec §4, §9). */
  z.object({
    type: z.literal('brand-logo-carousel'),
    header: z.string().max(200).optional(),
    cards: z
      .array(z.object({ link, imageId: imageId.optional(), header: z.string().min(1).max(200) }))
      .min(1)
      .max(40),
    autoplaySeconds: z.number().int().min(2).max(60).optional(),
  }),
  z.object({
    type: z.literal('brand-cards'),
    header: z.string().max(200).optional(),
    cards: z
      .array(z.object({ link, imageId: imageId.optional(), header: z.string().min(1).max(200) }))
      .max(40),
  }),
  /** A campaign's participation form (`campaigns.id`); see decision 038. */
  z.object({
    type: z.literal('campaign'),
    campaignId: z.string().regex(/^[\w-]{1,64}$/),
    title: z.string().min(1).max(200).optional(),
  }),
  /** The news-release subscription: a button and the modal its hash opens (default 'newsreleases'). */
  z.object({
    type: z.literal('news-releases'),
    hash: z
      .string()
      .regex(/^[\w-]{1,40}$/)
      .optional(),
  }),
]);
export type Block = z.infer<typeof blockSchema>;

export const pageBlocks = z.array(blockSchema).max(100);
