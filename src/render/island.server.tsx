import {
  type ComponentProps,
  type ComponentType,
  createContext,
  createElement,
  type ReactNode,
  useContext,
} from 'react';
import { renderToString } from 'react-dom/server';
import { serverT } from '../i18n/catalogues.ts';
import type { Lang } from '../sites/types.ts';
import { IslandRoot } from './island-root.tsx';
import { type HydrateOn, ISLAND_TAG } from './island-tag.ts';

export type { HydrateOn } from './island-tag.ts';

/**
 * Every island by name with its component. Empty here: the app's island registry fills it in
 * (declaration merging), so a name decides both the component and the props it takes, and
 * this layer needs to know nothing of the features.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by the app's registry
export interface IslandComponents {}

export type IslandName = keyof IslandComponents & string;
export type IslandProps<N extends IslandName> = ComponentProps<IslandComponents[N]>;
/** The registry with its components loaded: what the server renders islands with. */
export type ResolvedIslands = { readonly [N in IslandName]: IslandComponents[N] };

/** The URL of an island's texts in a language (`PageAssets.islandTexts`). */
export type TextsUrl = (island: string, lang: Lang) => string;
/** The modules of an island's code (`PageAssets.islandCode`). */
export type CodeUrls = (island: string) => string;

interface Scope {
  components: Partial<ResolvedIslands>;
  textsUrl: TextsUrl | undefined;
  codeUrls: CodeUrls | undefined;
  next: number;
}

const IslandScopeContext = createContext<Scope | null>(null);

/**
 * Numbers the islands of one page render, so each gets its own `identifierPrefix`, and hands
 * them the components to render with.
 */
export function IslandScope(props: {
  components: Partial<ResolvedIslands>;
  /** Where each island's texts are: its element names them for the client entry. */
  textsUrl?: TextsUrl | undefined;
  /** Where each island's code is: its element names it for the client entry. */
  codeUrls?: CodeUrls | undefined;
  children: ReactNode;
}) {
  return (
    <IslandScopeContext
      value={{
        components: props.components,
        textsUrl: props.textsUrl,
        codeUrls: props.codeUrls,
        next: 0,
      }}
    >
      {props.children}
    </IslandScopeContext>
  );
}

/**
 * Renders an interactive widget on the server and marks it for hydration in the browser.
 * The island is rendered as its own React root (as `hydrateRoot` will see it), and its props
 * travel as JSON in an attribute, which React escapes: no prop can break out of the markup.
 * `data-texts` names the module of the island's texts in its language (decision 160), `data-code`
 * the modules of its code and the exports it takes (decision 161).
 */
export function Island<N extends IslandName>(props: {
  name: N;
  props: Omit<IslandProps<N>, 'visitor'>;
  lang: Lang;
  hydrate?: HydrateOn;
  /**
   * The island's `visitor` prop: rendered here, but kept out of the island's JSON. The browser
   * takes it from the page's visitor data (`#k-visitor`, decision 157), so a shared page's
   * islands hold nothing of one visitor's.
   */
  visitor?: IslandProps<N> extends { visitor: infer V } ? V : never;
}) {
  const scope = useContext(IslandScopeContext);
  if (!scope) throw new Error('<Island> outside <IslandScope>');
  const Component = scope.components[props.name] as ComponentType<object> | undefined;
  if (!Component) throw new Error(`Island "${props.name}" is not in the registry`);
  const prefix = `${props.name}-${scope.next++}-`;
  const html = renderToString(
    <IslandRoot lang={props.lang} t={serverT(props.lang)}>
      <Component
        {...(props.props as ComponentProps<typeof Component>)}
        {...(props.visitor === undefined ? {} : { visitor: props.visitor })}
      />
    </IslandRoot>,
    { identifierPrefix: prefix },
  );
  return createElement(ISLAND_TAG, {
    'data-name': props.name,
    'data-hydrate': props.hydrate ?? 'load',
    'data-prefix': prefix,
    'data-lang': props.lang,
    'data-texts': scope.textsUrl?.(props.name, props.lang),
    'data-code': scope.codeUrls?.(props.name),
    'data-props': JSON.stringify(props.props),
    // biome-ignore lint/security/noDangerouslySetInnerHtml: React's own server render of the island
    dangerouslySetInnerHTML: { __html: html },
    ...(props.visitor === undefined ? {} : { 'data-visitor': '' }),
  });
}
