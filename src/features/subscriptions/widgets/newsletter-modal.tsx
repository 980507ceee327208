import { useRef, useState } from 'react';
import { useT } from '../../../i18n/react.tsx';
import { dismissal, SubscribeModal, styles, Thanks, useHashOpen } from './kit.tsx';
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
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const byHash = useRef(false);
  useHashOpen(props.hash, NEWSLETTER_DISMISSED, () => {
    byHash.current = true;
    setDone(false);
    setOpen(true);
  });
  const close = () => {
    dismissal.set(NEWSLETTER_DISMISSED);
    setOpen(false);
    if (window.location.hash.slice(1) === props.hash) {
      window.history.replaceState(null, '', window.location.pathname + window.location.search);
    }
    // Opened by the hash, nothing had the focus: it goes to the button that opens the modal.
    if (byHash.current) {
      byHash.current = false;
      requestAnimationFrame(() => button.current?.focus());
    }
  };
  return (
    <div className={`container ${styles.band}`}>
      <p>{t('subscribe.newsletter.intro')}</p>
      <button
        ref={button}
        type="button"
        className={styles.open}
        aria-haspopup="dialog"
        onClick={() => {
          byHash.current = false;
          setDone(false);
          setOpen(true);
        }}
      >
        {t('subscribe.newsletter.open')}
      </button>
      <SubscribeModal isOpen={open} onClose={close} title={t('subscribe.newsletter.title')}>
        {done ? (
          <Thanks
            title={t('subscribe.newsletter.thanksTitle')}
            text={t('subscribe.newsletter.thanks')}
            onClose={close}
          />
        ) : (
          <NewsletterForm
            source="newsletter-modal"
            event={props.event}
            onDone={() => setDone(true)}
          />
        )}
      </SubscribeModal>
    </div>
  );
}
