import {
  forwardRef,
  useCallback,
  useEffect,
  useId,
  useImperativeHandle,
  useRef,
  useState,
} from 'react';
import { useLang, useT } from '../../../i18n/react.tsx';
import type { MessageKey } from '../../../i18n/translate.ts';
import { CAPTCHA_CHALLENGE_PATH } from '../forms.ts';
import styles from './forms.module.css';

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'altcha-widget': React.DetailedHTMLProps<React.HTMLAttributes<HTMLElement>, HTMLElement> & {
        challenge?: string;
        auto?: string;
        name?: string;
        language?: string;
      };
    }
  }
}

interface AltchaElement extends HTMLElement {
  reset?: () => void;
  verify?: () => Promise<unknown>;
}

/** Where the captcha is: its code still loading, then ALTCHA's own states. */
export type CaptchaState =
  | 'loading'
  | 'unverified'
  | 'verifying'
  | 'verified'
  | 'expired'
  | 'error';

export interface CaptchaHandle {
  /** A token is spent once sent: start over with a new challenge. */
  renew(): void;
}

/**
 * The ALTCHA widget (a web component, loaded in the browser only). It fetches a challenge,
 * solves it in a worker as soon as it loads and hands the payload up as the token; every change
 * of its state goes up too. `notice` is said in a polite status message inside the captcha's
 * group (e.g. that a submit waits for it).
 *
 * The `<altcha-widget>` element is created only after the island has hydrated, never in the
 * server's HTML: ALTCHA renders into the element's own children as soon as its code is defined,
 * so a page with two forms would otherwise let the first form's code fill the second form's
 * widget before React hydrated it, and React would find HTML it did not render (error #418).
 */
export const Captcha = forwardRef<
  CaptchaHandle,
  {
    onStateChange: (state: CaptchaState, token: string) => void;
    notice?: MessageKey | undefined;
  }
>(function Captcha(props, ref) {
  const element = useRef<AltchaElement | null>(null);
  const lang = useLang();
  const t = useT();
  const id = useId();
  const [loaded, setLoaded] = useState(false);
  const { onStateChange } = props;

  useImperativeHandle(ref, () => ({
    renew() {
      onStateChange('unverified', '');
      element.current?.reset?.();
      void element.current?.verify?.();
    },
  }));

  useEffect(() => {
    let cancelled = false;
    Promise.all([
      import('altcha'),
      lang === 'sv' ? import('altcha/i18n/sv') : import('altcha/i18n/fi'),
    ])
      .then(() => {
        if (!cancelled) setLoaded(true);
      })
      .catch((error: unknown) => {
        console.error('captcha failed to load', error);
        if (!cancelled) onStateChange('error', '');
      });
    return () => {
      cancelled = true;
    };
  }, [lang, onStateChange]);

  // The widget exists from its insertion on; its first state change may come before any effect.
  const attach = useCallback(
    (widget: AltchaElement | null) => {
      element.current = widget;
      if (!widget) return;
      const onState = (event: Event) => {
        const detail = (event as CustomEvent<{ state?: string; payload?: string }>).detail;
        const state = (detail.state ?? 'unverified') as CaptchaState;
        onStateChange(state, state === 'verified' && detail.payload ? detail.payload : '');
      };
      widget.addEventListener('statechange', onState);
      widget.setAttribute('data-ready', '');
      return () => {
        widget.removeEventListener('statechange', onState);
        element.current = null;
      };
    },
    [onStateChange],
  );

  return (
    <fieldset className={styles.captcha} aria-describedby={`${id}-notice`}>
      <legend className={styles.visuallyHidden}>{t('form.captcha.label')}</legend>
      {/* Above the widget: ALTCHA's own error tooltip drops below its box. The server's
          refusals arrive as keys (@texts form.captcha.). */}
      <p id={`${id}-notice`} role="status" className={styles.captchaNotice}>
        {props.notice ? t(props.notice) : null}
      </p>
      {loaded ? (
        <altcha-widget
          ref={attach}
          challenge={CAPTCHA_CHALLENGE_PATH}
          auto="onload"
          name="altcha"
          language={lang}
        />
      ) : null}
    </fieldset>
  );
});
