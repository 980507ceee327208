import { createContext, type ReactNode, useContext } from 'react';
import type { Lang } from '../sites/types.ts';
import type { Translate } from './translate.ts';

interface I18nValue {
  lang: Lang;
  t: Translate;
}

const I18nContext = createContext<I18nValue | null>(null);

export function I18nProvider(props: { lang: Lang; t: Translate; children: ReactNode }) {
  return <I18nContext value={{ lang: props.lang, t: props.t }}>{props.children}</I18nContext>;
}

function useI18n(): I18nValue {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useT() outside <I18nProvider>');
  return value;
}

export function useT(): Translate {
  return useI18n().t;
}

export function useLang(): Lang {
  return useI18n().lang;
}
