import { Island, type IslandName } from '../../render/island.server.tsx';
import { usePage } from '../../render/page-context.tsx';
import { langPrefix, localLink } from '../../sites/resolve.ts';
import { isShopSite } from '../../sites/shop.ts';
import type { BlockFormId } from './forms.ts';
import { SHOP_PLACE_OF_PURCHASE } from './shop.ts';

/** The island of each form a page can hold. */
const islandOf = {
  'retail-contact': 'form-retail-contact',
  complaint: 'form-complaint',
  feedback: 'form-feedback',
  sponsorship: 'form-sponsorship',
  question: 'form-question',
  'promotional-photo': 'form-promotional-photo',
  'brand-contact': 'form-brand-contact',
  'expert-question': 'form-expert-question',
  'export-contact': 'form-export-contact',
  sales: 'form-sales',
  'school-material': 'form-school-material',
} as const satisfies Record<BlockFormId, IslandName>;

/**
 * A page's form block: the form as an island, with what the page knows of the site and what the
 * block configures (the export contact form's success and error texts and its `ContentId`). The
 * export form sends the `ContentId` its block names, else that of the page it is on.
 */
export function FormBlock(props: {
  form: BlockFormId;
  successPage?: string | undefined;
  successMessage?: string | undefined;
  errorMessage?: string | undefined;
  contentId?: number | undefined;
  /** The content id of the page the block is on (`page-12`). */
  pageContentId?: string | undefined;
}) {
  const contentId = props.contentId ?? props.pageContentId;
  const { site, lang } = usePage();
  const islandProps: Record<string, unknown> = {
    // Stored paths are without the language prefix (decision 007).
    ...(props.successPage
      ? { successPage: localLink(props.successPage, langPrefix(site, lang)) }
      : {}),
    ...(isShopSite(site) && ['retail-contact', 'complaint'].includes(props.form)
      ? { fixedPlaceOfPurchase: SHOP_PLACE_OF_PURCHASE }
      : {}),
    ...(props.form === 'export-contact'
      ? {
          ...(props.successMessage ? { successMessage: props.successMessage } : {}),
          ...(props.errorMessage ? { errorMessage: props.errorMessage } : {}),
          ...(contentId !== undefined ? { contentId } : {}),
        }
      : {}),
  };
  return (
    <div className="container">
      <Island name={islandOf[props.form]} props={islandProps} lang={lang} />
    </div>
  );
}
