import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import { useLang, useT } from '../../../i18n/react.tsx';
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

export interface CaptchaHandle {
  /** A token is spent once sent: start over with a new challenge. */
  renew(): void;
}

/**
 * The ALTCHA widget (a web component, loaded in the browser only). It fetches a challenge,
 * solves it in a worker as soon as it loads and hands the payload up as the token.
 */
export const Captcha = forwardRef<CaptchaHandle, { onToken: (token: string) => void }>(
  function Captcha(props, ref) {
    const element = useRef<AltchaElement>(null);
    const lang = useLang();
    const t = useT();
    const { onToken } = props;

    useImperativeHandle(ref, () => ({
      renew() {
        onToken('');
        element.current?.reset?.();
        void element.current?.verify?.();
      },
    }));

    useEffect(() => {
      let cancelled = false;
      const widget = element.current;
      const onState = (event: Event) => {
        const detail = (event as CustomEvent<{ state?: string; payload?: string }>).detail;
        onToken(detail.state === 'verified' && detail.payload ? detail.payload : '');
      };
      widget?.addEventListener('statechange', onState);
      Promise.all([
        import('altcha'),
        lang === 'sv' ? import('altcha/i18n/sv') : import('altcha/i18n/fi'),
      ])
        .then(() => {
          if (!cancelled) widget?.setAttribute('data-ready', '');
        })
        .catch((error: unknown) => console.error('captcha failed to load', error));
      return () => {
        cancelled = true;
        widget?.removeEventListener('statechange', onState);
      };
    }, [lang, onToken]);

    return (
      <div className={styles.captcha}>
        <span className={styles.visuallyHidden}>{t('form.captcha.label')}</span>
        <altcha-widget
          ref={element}
          challenge={CAPTCHA_CHALLENGE_PATH}
          auto="onload"
          name="altcha"
          language={lang}
          suppressHydrationWarning
        />
      </div>
    );
  },
);
