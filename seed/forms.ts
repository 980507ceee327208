import type { Block } from '../src/features/content/blocks.ts';
import type { BlockFormId } from '../src/features/forms/index.ts';

type FormPage = 'contact' | 'school' | 'fsSales';

/**
 * Which forms the seeded pages carry: retail brands get the retail contact page (complaint and
 * feedback), the master-chef brand its own contact form, export the English export form,
 * food-service sites the expert question and the sales form, the Finnish corporate site the
 * school material order. Every form is on at least one site.
 */
const formsBySite: Record<string, Partial<Record<FormPage, BlockFormId[]>>> = {
  konsernifi: { contact: ['question'], school: ['school-material'] },
  koncernse: { contact: ['question'] },
  lihakauppa: { contact: ['retail-contact'] },
  jyvabroiler: { contact: ['retail-contact', 'sponsorship'] },
  sibylla: { contact: ['retail-contact', 'promotional-photo'] },
  mestariforsmanfi: { contact: ['brand-contact'] },
  export: { contact: ['export-contact'] },
  ammattilaiset: { contact: ['expert-question'], fsSales: ['sales'] },
  foodservicese: { contact: ['expert-question'], fsSales: ['sales'] },
};

/**
 * The forms that go to a success page once sent (spec forms §2.1, §2.8, §2.10); the others
 * replace themselves with their success text.
 */
const redirecting: readonly BlockFormId[] = ['retail-contact', 'expert-question', 'sales'];

function formsOf(siteId: string, page: FormPage): BlockFormId[] {
  return formsBySite[siteId]?.[page] ?? (page === 'contact' ? ['retail-contact'] : []);
}

/** Whether a site has a form that goes to a success page: it gets a thank-you page. */
export function hasSuccessPage(siteId: string): boolean {
  return (['contact', 'fsSales'] as const).some((page) =>
    formsOf(siteId, page).some((form) => redirecting.includes(form)),
  );
}

/** A page's form blocks; those that go to a success page go to `successPage`. */
export function formBlocks(siteId: string, page: FormPage, successPage?: string): Block[] {
  return formsOf(siteId, page).map((form) => ({
    type: 'form',
    form,
    ...(successPage && redirecting.includes(form) ? { successPage } : {}),
  }));
}
