import { type ComponentType, useRef, useState } from 'react';
import { useT } from '../../../i18n/react.tsx';
import { useKeepClear } from './keep-clear.ts';
import { styles } from './kit.tsx';
import { SubscribeModal, Thanks } from './modal.tsx';
import { NewsletterForm } from './newsletter-form.tsx';

export type OverlayState = 'closed' | 'newsletter' | 'questionForm';

/**
 * The floating overlay of the food-service sites (spec §2, §4): 'Tilaa Ideakirje' opens the
 * newsletter (input, then the success state), 'Kysy asiantuntijalta' the expert question form
 * (the forms feature's own); each in a modal dialog, and closing it returns to `closed`. On small
 * screens the bar runs along the bottom edge and has its own close, which hides it; the page
 * behind an open dialog does not scroll. The bar never covers what the visitor is working with:
 * while a form, the lunch menu or the focused element lies where it floats, it steps aside
 * (`keep-clear.ts`) and comes back once they have scrolled away.
 */
export type QuestionForm = ComponentType<{
  successPage?: string | undefined;
  onClose: () => void;
}>;

/**
 * The overlay with the expert question form given: the app joins it with the forms feature's
 * own (`app/islands.ts`), so neither feature's browser code imports the other's.
 */
export function withQuestionForm(ExpertQuestion: QuestionForm) {
  return function FloatingOverlayIsland(props: { event: boolean; successPage?: string }) {
    return <FloatingOverlay {...props} questionForm={ExpertQuestion} />;
  };
}

function FloatingOverlay(props: {
  event: boolean;
  successPage?: string | undefined;
  questionForm: QuestionForm;
}) {
  const ExpertQuestion = props.questionForm;
  const t = useT();
  const [state, setState] = useState<OverlayState>('closed');
  const [subscribed, setSubscribed] = useState(false);
  const [hidden, setHidden] = useState(false);
  const bar = useRef<HTMLElement>(null);
  const clear = useKeepClear(bar, state === 'closed' && !hidden);
  const close = () => setState('closed');
  if (hidden) return null;
  return (
    <>
      <aside
        ref={bar}
        className={styles.bar}
        aria-label={t('subscribe.overlay.label')}
        data-state={state}
        data-clear={clear || undefined}
      >
        <button
          type="button"
          className={styles.open}
          aria-haspopup="dialog"
          onClick={() => {
            setSubscribed(false);
            setState('newsletter');
          }}
        >
          {t('subscribe.overlay.newsletter')}
        </button>
        <button
          type="button"
          className={styles.open}
          aria-haspopup="dialog"
          onClick={() => setState('questionForm')}
        >
          {t('subscribe.overlay.expert')}
        </button>
        <button type="button" className={styles.hide} onClick={() => setHidden(true)}>
          {t('subscribe.overlay.hide')}
        </button>
      </aside>
      <SubscribeModal
        isOpen={state === 'newsletter'}
        onClose={close}
        title={t('subscribe.overlay.newsletterTitle')}
      >
        {subscribed ? (
          <Thanks
            title={t('subscribe.newsletter.thanksTitle')}
            text={t('subscribe.newsletter.thanks')}
            onClose={close}
          />
        ) : (
          <NewsletterForm source="overlay" event={props.event} onDone={() => setSubscribed(true)} />
        )}
      </SubscribeModal>
      <SubscribeModal
        isOpen={state === 'questionForm'}
        onClose={close}
        withClose={false}
        title={t('subscribe.overlay.expert')}
      >
        <ExpertQuestion successPage={props.successPage} onClose={close} />
      </SubscribeModal>
    </>
  );
}
