import { type ReactNode, useEffect } from 'react';
import { I18nProvider } from '../i18n/react.tsx';
import type { Translate } from '../i18n/translate.ts';
import type { Lang } from '../sites/types.ts';

/**
 * The root of every island, on the server and in the browser alike, so both render the same tree
 * (and `useId` agrees). In the browser `onHydrated` marks the wrapper once React has committed.
 */
export function IslandRoot(props: {
  lang: Lang;
  t: Translate;
  onHydrated?: () => void;
  children: ReactNode;
}) {
  const { onHydrated } = props;
  useEffect(() => onHydrated?.(), [onHydrated]);
  return (
    <I18nProvider lang={props.lang} t={props.t}>
      {props.children}
    </I18nProvider>
  );
}
