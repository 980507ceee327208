import { useT } from '../../../i18n/react.tsx';
import { SubscribeModal, Thanks } from './modal.tsx';
import { NewsletterForm } from './newsletter-form.tsx';

/**
 * The newsletter modal's open dialog: the form, then the thank-you state. Its own module, loaded
 * when the modal first opens (`newsletter-modal.tsx`): React Aria's dialog and the form's schema
 * (zod) are not needed to show the band and its button.
 */
export function NewsletterDialog(props: {
  event: boolean;
  done: boolean;
  onDone: () => void;
  onClose: () => void;
}) {
  const t = useT();
  return (
    <SubscribeModal isOpen onClose={props.onClose} title={t('subscribe.newsletter.title')}>
      {props.done ? (
        <Thanks
          title={t('subscribe.newsletter.thanksTitle')}
          text={t('subscribe.newsletter.thanks')}
          onClose={props.onClose}
        />
      ) : (
        <NewsletterForm source="newsletter-modal" event={props.event} onDone={props.onDone} />
      )}
    </SubscribeModal>
  );
}
