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

export function formBlocks(siteId: string, page: FormPage): Block[] {
  const forms = formsBySite[siteId]?.[page] ?? (page === 'contact' ? ['retail-contact'] : []);
  return forms.map((form) => ({ type: 'form', form }));
}
