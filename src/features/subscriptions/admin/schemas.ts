import { z } from 'zod';
import { scopeFilterShape } from '../../staff/index.ts';

/**
 * The marketing lists in the back office (decision 158): the subscribers of each site's lists
 * with their consent records, their export, taking someone off a list on their behalf, and the
 * campaigns' participants, their export and the raffle. Shared by the routes and the /admin app.
 */
export const SUBSCRIBERS_API = '/api/admin/subscribers';
export const CAMPAIGNS_API = '/api/admin/campaigns';

const INVALID = 'admin.error.invalid';

export const SUBSCRIPTION_STATUSES = ['pending', 'confirmed', 'unsubscribed'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** What a list is: the site's newsletter, a news-release category, or a campaign's list. */
export const LIST_KINDS = ['newsletter', 'newsreleases', 'campaign'] as const;
export type ListKind = (typeof LIST_KINDS)[number];

const listName = z.string().regex(/^[A-Za-z0-9:_-]{1,80}$/, INVALID);

/** A list of a site as the overview shows it: no addresses, only how many in each status. */
export const subscriberListSchema = z.object({
  siteId: z.string(),
  list: z.string(),
  kind: z.enum(LIST_KINDS),
  /** The category's or campaign's name; null for the newsletter (the app names it). */
  name: z.string().nullable(),
  counts: z.object({ pending: z.number(), confirmed: z.number(), unsubscribed: z.number() }),
});
export type SubscriberList = z.infer<typeof subscriberListSchema>;
export const subscriberListsSchema = z.object({ lists: z.array(subscriberListSchema) });

export const subscribersQuerySchema = z
  .object({
    ...scopeFilterShape,
    list: listName.optional(),
    status: z.enum(SUBSCRIPTION_STATUSES, { error: INVALID }).optional(),
    /** A part of the address (customer service finding the person who called). */
    q: z.string().trim().max(100, 'admin.error.tooLong').optional(),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  })
  .strict();
export type SubscribersQuery = z.infer<typeof subscribersQuerySchema>;
export const subscribersExportQuerySchema = subscribersQuerySchema.omit({ offset: true });

/** One address on one list, with its consent record. */
export const subscriberSchema = z.object({
  id: z.number().int(),
  siteId: z.string(),
  list: z.string(),
  email: z.string(),
  lang: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  source: z.string(),
  consentText: z.string(),
  consentAt: z.string(),
  confirmedAt: z.string().nullable(),
  unsubscribedAt: z.string().nullable(),
  /** The row's last change: a change names it as the version it was made on. */
  version: z.string(),
});
export type Subscriber = z.infer<typeof subscriberSchema>;
export const subscribersSchema = z.object({
  subscribers: z.array(subscriberSchema),
  total: z.number().int(),
});

export const subscriberIdParamsSchema = z.object({ id: z.coerce.number().int().min(1) });
export const unsubscribeOnBehalfSchema = z
  .object({ version: z.string({ error: INVALID }).datetime({ offset: true, message: INVALID }) })
  .strict();
export type UnsubscribeOnBehalf = z.infer<typeof unsubscribeOnBehalfSchema>;

// Campaigns -----------------------------------------------------------------------------------

export const campaignSchema = z.object({
  id: z.string(),
  siteId: z.string(),
  name: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  participants: z.number().int(),
  drawCount: z.number().int(),
});
export type AdminCampaign = z.infer<typeof campaignSchema>;
export const campaignsSchema = z.object({ campaigns: z.array(campaignSchema) });

export const campaignIdParamsSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]{1,80}$/, INVALID),
});
export const campaignQuerySchema = z
  .object({ offset: z.coerce.number().int().min(0).max(1_000_000).default(0) })
  .strict();

export const participantSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  lang: z.string(),
  acceptedRules: z.boolean(),
  wantsNewsletter: z.boolean(),
  createdAt: z.string(),
});
export type Participant = z.infer<typeof participantSchema>;

export const drawSchema = z.object({
  id: z.number().int(),
  drawnAt: z.string(),
  drawnBy: z.string(),
  seed: z.string(),
  winnersWanted: z.number().int(),
  participantCount: z.number().int(),
  participantsDigest: z.string(),
  winners: z.array(z.object({ id: z.number().int(), email: z.string().nullable() })),
});
export type Draw = z.infer<typeof drawSchema>;

/** A campaign opened: its participants (50 at a time) and its draws with their winners. */
export const openedCampaignSchema = campaignSchema.extend({
  participantList: z.array(participantSchema),
  draws: z.array(drawSchema),
});
export type OpenedCampaign = z.infer<typeof openedCampaignSchema>;

export const drawRequestSchema = z
  .object({
    winners: z.number({ error: INVALID }).int(INVALID).min(1, INVALID).max(100, INVALID),
  })
  .strict();
export type DrawRequest = z.infer<typeof drawRequestSchema>;
