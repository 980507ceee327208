/**
 * Which of the marketing widgets each site has (decision 038). A site not named has none.
 * - `newsletterHash`: the newsletter modal with its button above the footer of every page; the
 *   URL hash that opens it (spec §2: 'newsletter', configurable).
 * - `overlay`: the floating overlay ('Tilaa Ideakirje', 'Kysy asiantuntijalta'), the food-service
 *   sites', whose expert question form it opens.
 * - `foodService`: the newsletter pushes `fs_newsletter_form_submit` (spec §7).
 * The news-release modal and the campaign block are page blocks (`news-releases`, `campaign`).
 */
export interface SubscriptionSettings {
  newsletterHash?: string;
  overlay?: boolean;
  foodService?: boolean;
}

const brand: SubscriptionSettings = { newsletterHash: 'newsletter' };
const foodService: SubscriptionSettings = {
  newsletterHash: 'newsletter',
  overlay: true,
  foodService: true,
};

export const subscriptionSettings: Readonly<Record<string, SubscriptionSettings>> = {
  ammattilaiset: foodService,
  foodservicese: foodService,
  lihakauppa: brand,
  jyvabroiler: brand,
  sibylla: brand,
  mestariforsmanfi: brand,
  delise: brand,
  ridderheimsse: brand,
  lithellsse: brand,
  lonnebergase: brand,
  goohse: brand,
};

export const NEWS_RELEASES_HASH = 'newsreleases';
