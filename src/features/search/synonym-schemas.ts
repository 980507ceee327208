import { z } from 'zod';

/**
 * Search synonyms in the back office (decision 164): the sets of a search language listed, added,
 * changed and removed by staff with `search.synonyms` for that language on every site.
 */
export const SYNONYMS_API = '/api/admin/search/synonyms';

const INVALID = 'admin.error.invalid';
const REQUIRED = 'admin.error.required';
const TOO_LONG = 'admin.error.tooLong';

export const SYNONYM_LANGS = ['fi', 'sv', 'en'] as const;
export const SYNONYM_KINDS = ['two-way', 'one-way'] as const;
/** A term: a word or a short phrase (`hot dog`, `sika-nauta jauheliha`). */
export const TERM_MAX = 60;
/** Terms or targets in one set. */
export const TERMS_MAX = 20;

export const synonymLangParamsSchema = z.object({
  lang: z.enum(SYNONYM_LANGS, { error: INVALID }),
});

export const synonymParamsSchema = synonymLangParamsSchema.extend({
  id: z.coerce.number({ error: INVALID }).int(INVALID).min(1, INVALID).max(2_147_483_647, INVALID),
});

/** A term as kept: lower case, single spaces, letters, digits, spaces, hyphens and apostrophes. */
const term = z
  .string({ error: REQUIRED })
  .transform((value) => value.normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim())
  .pipe(
    z
      .string()
      .min(1, REQUIRED)
      .max(TERM_MAX, TOO_LONG)
      .regex(/^[\p{L}\p{N}][\p{L}\p{N} '-]*$/u, INVALID),
  );

const terms = z.array(term).max(TERMS_MAX, TOO_LONG);

const setFields = {
  kind: z.enum(SYNONYM_KINDS, { error: INVALID }),
  /** Two-way: the words that stand for each other (two or more). One-way: what is typed. */
  terms: terms.min(1, REQUIRED),
  /** One-way: what the terms also search for (one or more). Two-way: empty. */
  targets: terms.default([]),
};

/** A set's kinds and sizes agree: a two-way set of two or more, a one-way set with targets. */
function checkSet(
  set: { kind: (typeof SYNONYM_KINDS)[number]; terms: string[]; targets: string[] },
  ctx: z.RefinementCtx,
) {
  const distinct = new Set(set.terms);
  if (distinct.size !== set.terms.length)
    ctx.addIssue({ code: 'custom', path: ['terms'], message: INVALID });
  if (set.kind === 'two-way') {
    if (distinct.size < 2) ctx.addIssue({ code: 'custom', path: ['terms'], message: REQUIRED });
    if (set.targets.length) ctx.addIssue({ code: 'custom', path: ['targets'], message: INVALID });
  } else if (set.targets.length === 0) {
    ctx.addIssue({ code: 'custom', path: ['targets'], message: REQUIRED });
  }
}

export const synonymCreateSchema = z.object(setFields).strict().superRefine(checkSet);
export type SynonymCreate = z.infer<typeof synonymCreateSchema>;

export const synonymUpdateSchema = z
  .object({
    ...setFields,
    /** The version the staff member saw: 409 when the set changed since. */
    version: z.number({ error: REQUIRED }).int(INVALID).min(1, INVALID),
  })
  .strict()
  .superRefine(checkSet);
export type SynonymUpdate = z.infer<typeof synonymUpdateSchema>;

export const synonymDeleteQuerySchema = z.object({
  version: z.coerce.number({ error: REQUIRED }).int(INVALID).min(1, INVALID),
});

export const synonymRowSchema = z.object({
  id: z.number().int(),
  lang: z.enum(SYNONYM_LANGS),
  kind: z.enum(SYNONYM_KINDS),
  terms: z.array(z.string()),
  targets: z.array(z.string()),
  version: z.number().int(),
  updatedAt: z.string(),
});
export type SynonymRow = z.infer<typeof synonymRowSchema>;

export const synonymListSchema = z.object({ synonyms: z.array(synonymRowSchema) });
export type SynonymList = z.infer<typeof synonymListSchema>;
