import { useT } from '../../../i18n/react.tsx';
import { SubscribeModal, styles, Thanks, useHashModal } from './kit.tsx';
import { NewsletterForm } from './newsletter-form.tsx';

/** The stored flag of spec §4: set when the modal is closed. */
export const NEWSLETTER_DISMISSED = 'kattaus:newsletter-dismissed';

/**
 * The newsletter modal (spec §2, §4): opens when the URL hash is `hash` (see `useHashOpen`) or by
 * its button, shows the form and then the thank-you state. Closing it sets the dismissal flag, so
 * the hash no longer opens it; the button always does.
 */
export function NewsletterModal(props: { hash: string; event: boolean }) {
  const t = useT();
  const modal = useHashModal(props.hash, NEWSLETTER_DISMISSED);
  return (
    <div className={`container ${styles.band}`}>
      <p>{t('subscribe.newsletter.intro')}</p>
      <button {...modal.opener}>{t('subscribe.newsletter.open')}</button>
      <SubscribeModal
        isOpen={modal.open}
        onClose={modal.close}
        title={t('subscribe.newsletter.title')}
      >
        {modal.done ? (
          <Thanks
            title={t('subscribe.newsletter.thanksTitle')}
            text={t('subscribe.newsletter.thanks')}
            onClose={modal.close}
          />
        ) : (
          <NewsletterForm source="newsletter-modal" event={props.event} onDone={modal.finished} />
        )}
      </SubscribeModal>
    </div>
  );
}
