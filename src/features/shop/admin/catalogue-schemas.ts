import { z } from 'zod';

/**
 * The shop's catalogue operations in the back office (decision 141): stock, per-date stock,
 * the weekly quantities of products sold per date, and price with VAT class. Every change names
 * the value the staff member saw, so that nothing someone else changed meanwhile (a checkout, a
 * colleague) is silently overwritten.
 */
export const CATALOGUE_API = '/api/admin/catalogue';

const INVALID = 'admin.error.invalid';
const TOO_LONG = 'admin.error.tooLong';

const code = z.string().regex(/^[A-Za-z0-9-]{1,40}$/, INVALID);
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, INVALID);
const count = z.number({ error: INVALID }).int(INVALID).min(0, INVALID).max(1_000_000, INVALID);
const TAX_CLASSES = ['food', 'standard', 'exempt'] as const;

export const catalogueQuerySchema = z
  .object({
    q: z.string().trim().max(200, TOO_LONG).optional(),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  })
  .strict();
export type CatalogueQuery = z.infer<typeof catalogueQuerySchema>;

export const catalogueProductSchema = z.object({
  code: z.string(),
  name: z.string(),
  siteId: z.string(),
  priceCents: z.number().int().nullable(),
  taxClass: z.string(),
  /** The class's rate today, in basis points. */
  vatBasisPoints: z.number().int().nullable(),
  /** null: unlimited. */
  stock: z.number().int().nullable(),
  isGiftCard: z.boolean(),
  /** Weekday 1 (Monday) … 7: the quantity sold per delivery date, null where none is set. */
  weekly: z.array(z.number().int().nullable()).length(7),
  /** The coming dates with a stock of their own: capacity and what is sold. */
  dates: z.array(
    z.object({ date: z.string(), capacity: z.number().int(), sold: z.number().int() }),
  ),
});
export type CatalogueProduct = z.infer<typeof catalogueProductSchema>;

export const catalogueListSchema = z.object({
  products: z.array(catalogueProductSchema),
  total: z.number().int(),
});
export type CatalogueList = z.infer<typeof catalogueListSchema>;

export const codeParamsSchema = z.object({ code });

/** The stock to set (null: unlimited), and the stock the staff member saw. */
export const stockBodySchema = z
  .object({ stock: count.nullable(), expected: count.nullable() })
  .strict();

/** A date's own stock: the capacity from which its orders are taken. */
export const dateStockBodySchema = z.object({ date: isoDate, capacity: count }).strict();

/** Weekday 1 (Monday) … 7: a quantity, or null for none on that weekday. */
export const weeklyBodySchema = z
  .object({ quantities: z.array(count.nullable()).length(7, INVALID) })
  .strict();

export const priceBodySchema = z
  .object({
    priceCents: count,
    taxClass: z.enum(TAX_CLASSES, { error: INVALID }),
    expected: z
      .object({ priceCents: count.nullable(), taxClass: z.string().max(40, INVALID) })
      .strict(),
  })
  .strict();
