import { type ComponentType, createContext, type ReactNode, useContext } from 'react';
import { renderToString } from 'react-dom/server';
import type { IslandName } from '../client/islands.ts';
import { serverT } from '../i18n/catalogues.ts';
import type { Lang } from '../sites/types.ts';
import { IslandRoot } from './island-root.tsx';

export type HydrateOn = 'load' | 'idle' | 'visible';

/** The wrapper element of an island: `display: contents`, so it adds no box of its own. */
export const ISLAND_TAG = 'k-island';

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'k-island': React.DetailedHTMLProps<React.HTMLAttributes<HTMLElement>, HTMLElement>;
    }
  }
}

const IslandCounter = createContext<{ next: number } | null>(null);

/** Numbers the islands of one page render, so each gets its own `identifierPrefix`. */
export function IslandScope(props: { children: ReactNode }) {
  return <IslandCounter value={{ next: 0 }}>{props.children}</IslandCounter>;
}

/**
 * Renders an interactive widget on the server and marks it for hydration in the browser.
 * The island is rendered as its own React root (as `hydrateRoot` will see it), and its props
 * travel as JSON in an attribute, which React escapes: no prop can break out of the markup.
 */
export function Island<P extends object>(props: {
  name: IslandName;
  component: ComponentType<P>;
  props: P;
  lang: Lang;
  hydrate?: HydrateOn;
}) {
  const counter = useContext(IslandCounter);
  if (!counter) throw new Error('<Island> outside <IslandScope>');
  const prefix = `${props.name}-${counter.next++}-`;
  const Component = props.component;
  const html = renderToString(
    <IslandRoot lang={props.lang} t={serverT(props.lang)}>
      <Component {...props.props} />
    </IslandRoot>,
    { identifierPrefix: prefix },
  );
  return (
    <k-island
      data-name={props.name}
      data-hydrate={props.hydrate ?? 'load'}
      data-prefix={prefix}
      data-lang={props.lang}
      data-props={JSON.stringify(props.props)}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: React's own server render of the island
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
