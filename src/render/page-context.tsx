import { createContext, type ReactNode, useContext } from 'react';
import type { Translate } from '../i18n/translate.ts';
import type { Lang, Site } from '../sites/types.ts';

export interface PageContextValue {
  site: Site;
  lang: Lang;
  t: Translate;
  /** Path of this page, with its language prefix. */
  path: string;
  /** Absolute address of another site's home page. */
  siteHref(siteId: string): string;
}

const PageContext = createContext<PageContextValue | null>(null);

export function PageProvider(props: { value: PageContextValue; children: ReactNode }) {
  return <PageContext value={props.value}>{props.children}</PageContext>;
}

/** Site, language and texts of the page being rendered (server components only). */
export function usePage(): PageContextValue {
  const value = useContext(PageContext);
  if (!value) throw new Error('usePage() outside <PageProvider>');
  return value;
}
