import type { ComponentType } from 'react';
import type { IslandName } from '../../client/islands.ts';
import { Island } from '../../render/island.tsx';
import { usePage } from '../../render/page-context.tsx';
import { langPrefix } from '../../sites/resolve.ts';
import { localLink } from '../content/card-grid/cards.ts';
import type { BlockFormId } from './forms.ts';
import { SHOP_PLACE_OF_PURCHASE } from './shop.ts';
import { BrandContactForm } from './widgets/brand-contact-form.tsx';
import { ExpertQuestionForm } from './widgets/expert-question-form.tsx';
import { ExportContactForm } from './widgets/export-contact-form.tsx';
import { PromotionalPhotoForm } from './widgets/promotional-photo-form.tsx';
import { QuestionForm } from './widgets/question-form.tsx';
import { ComplaintForm, FeedbackForm, RetailContact } from './widgets/retail-forms.tsx';
import { SalesForm } from './widgets/sales-form.tsx';
import { SchoolMaterialForm } from './widgets/school-material-form.tsx';
import { SponsorshipForm } from './widgets/sponsorship-form.tsx';

const components: Record<BlockFormId, { island: IslandName; component: ComponentType<never> }> = {
  'retail-contact': { island: 'form-retail-contact', component: RetailContact },
  complaint: { island: 'form-complaint', component: ComplaintForm },
  feedback: { island: 'form-feedback', component: FeedbackForm },
  sponsorship: { island: 'form-sponsorship', component: SponsorshipForm },
  question: { island: 'form-question', component: QuestionForm },
  'promotional-photo': { island: 'form-promotional-photo', component: PromotionalPhotoForm },
  'brand-contact': { island: 'form-brand-contact', component: BrandContactForm },
  'expert-question': { island: 'form-expert-question', component: ExpertQuestionForm },
  'export-contact': { island: 'form-export-contact', component: ExportContactForm },
  sales: { island: 'form-sales', component: SalesForm },
  'school-material': { island: 'form-school-material', component: SchoolMaterialForm },
};

/**
 * A page's form block: the form as an island, with what the page knows of the site and what the
 * block configures (the export contact form's success and error texts and its `ContentId`).
 */
export function FormBlock(props: {
  form: BlockFormId;
  successPage?: string | undefined;
  successMessage?: string | undefined;
  errorMessage?: string | undefined;
  contentId?: number | undefined;
}) {
  const { site, lang } = usePage();
  const entry = components[props.form];
  const islandProps: Record<string, unknown> = {
    // Stored paths are without the language prefix (decision 007).
    ...(props.successPage
      ? { successPage: localLink(props.successPage, langPrefix(site, lang)) }
      : {}),
    ...(site.id === 'lihakauppa' && ['retail-contact', 'complaint'].includes(props.form)
      ? { fixedPlaceOfPurchase: SHOP_PLACE_OF_PURCHASE }
      : {}),
    ...(props.form === 'export-contact'
      ? {
          ...(props.successMessage ? { successMessage: props.successMessage } : {}),
          ...(props.errorMessage ? { errorMessage: props.errorMessage } : {}),
          ...(props.contentId !== undefined ? { contentId: props.contentId } : {}),
        }
      : {}),
  };
  return (
    <div className="container">
      <Island
        name={entry.island}
        component={entry.component as ComponentType<Record<string, unknown>>}
        props={islandProps}
        lang={lang}
      />
    </div>
  );
}
