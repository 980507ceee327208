import { z } from 'zod';
import type { Lang } from '../../sites/types.ts';

/** The spec's language enumeration: en, fi, se (Swedish), de. */
export const languageIdSchema = z.enum(['en', 'fi', 'se', 'de']);
export type LanguageId = z.infer<typeof languageIdSchema>;

export function langOfLanguageId(id: LanguageId): Lang | undefined {
  if (id === 'se') return 'sv';
  if (id === 'de') return undefined;
  return id;
}

export const navQuerySchema = z
  .object({
    languageId: languageIdSchema.default('fi'),
    pageId: z.coerce.number().int().min(0).optional(),
    subDomainId: z.string().max(64).optional(),
  })
  .strict();
export type NavQuery = z.output<typeof navQuerySchema>;

const link = z.string();

export const navChildSchema = z.object({ label: z.string(), link, isExternal: z.boolean() });

export const tabSchema = z
  .object({
    label: z.string(),
    link,
    icon: z.string().nullable(),
    isExternal: z.boolean(),
    showBorder: z.boolean(),
    children: z.array(navChildSchema),
    teaserImage: z.string().nullable(),
    showMoreLabel: z.string().nullable(),
  })
  .meta({ id: 'Tab' });
export type Tab = z.infer<typeof tabSchema>;

export const languageLinkSchema = z.object({
  label: z.string(),
  link,
  lang: z.enum(['fi', 'sv', 'en']),
});

export const desktopNavSchema = z
  .object({
    topTabs: z.array(tabSchema),
    bottomTabs: z.array(tabSchema),
    languageMenu: z.array(languageLinkSchema),
  })
  .meta({ id: 'DesktopNav' });
export type DesktopNav = z.infer<typeof desktopNavSchema>;

export const navAccordionSchema = z.object({
  label: z.string(),
  link,
  children: z.array(navChildSchema),
  expanded: z.boolean(),
  showMoreLabel: z.string().nullable(),
  isExternal: z.boolean(),
  teaserImage: z.string().nullable(),
});

export const mobileNavSchema = z
  .object({
    barLinks: z.array(z.object({ label: z.string(), link })),
    navAccordions: z.array(navAccordionSchema),
    navLinks: z.array(z.object({ label: z.string(), link, icon: z.string().nullable() })),
    languageMenu: z.array(languageLinkSchema),
  })
  .meta({ id: 'MobileNav' });
export type MobileNav = z.infer<typeof mobileNavSchema>;
