import { type ReactNode, Suspense, useEffect } from 'react';
import { I18nProvider } from '../i18n/react.tsx';
import type { Translate } from '../i18n/translate.ts';
import type { Lang } from '../sites/types.ts';

/**
 * The root of every island, on the server and in the browser alike, so both render the same tree
 * (and `useId` agrees).
 *
 * The island's content sits in a Suspense boundary. React hydrates a server-rendered boundary
 * apart from its root, at offscreen priority and in slices of a few milliseconds that yield to
 * the browser between them, instead of in one task as long as the whole island (decision 062).
 * A press or key on a part not yet hydrated still hydrates that part at once and replays the
 * event (React's selective hydration). `onHydrated` marks the wrapper once the content itself
 * has committed, not only the root.
 */
export function IslandRoot(props: {
  lang: Lang;
  t: Translate;
  onHydrated?: () => void;
  children: ReactNode;
}) {
  return (
    <I18nProvider lang={props.lang} t={props.t}>
      <Suspense fallback={null}>
        {props.children}
        <Committed onCommit={props.onHydrated} />
      </Suspense>
    </I18nProvider>
  );
}

/** Renders nothing; tells once its boundary's content has committed. */
function Committed(props: { onCommit: (() => void) | undefined }) {
  const { onCommit } = props;
  useEffect(() => onCommit?.(), [onCommit]);
  return null;
}
