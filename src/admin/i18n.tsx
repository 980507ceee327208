import { createContext, type ReactNode, useContext, useMemo } from 'react';
import { I18nProvider } from 'react-aria-components';
import {
  type AdminMessageKey,
  type AdminTranslate,
  adminT,
  isAdminMessageKey,
} from '../i18n/admin.ts';
import { formatPrice } from '../i18n/format.ts';

export type AdminLang = 'fi' | 'sv' | 'en';

interface I18n {
  lang: AdminLang;
  /** Speaks `lang` from now on in this browser (before anyone is signed in). */
  choose(lang: AdminLang): void;
  t: AdminTranslate;
  /** The text of an API's field error key; a general one for a key without a text. */
  error(key: string | undefined): string | undefined;
  /** A moment (an ISO string from the API) as this language writes a date and time. */
  dateTime(at: string): string;
  /** A calendar day (`2026-03-02`) as this language writes it, with its weekday. */
  day(date: string): string;
  /** Integer cents as money: `12,34 €`. */
  money(cents: number): string;
}

const Context = createContext<I18n>({
  lang: 'fi',
  choose: () => undefined,
  t: adminT('fi'),
  error: (key) => key,
  dateTime: (at) => at,
  day: (date) => date,
  money: (cents) => formatPrice(cents),
});

const LOCALES: Record<AdminLang, string> = { fi: 'fi-FI', sv: 'sv-SE', en: 'en-GB' };

export function AdminI18n({
  lang,
  choose,
  children,
}: {
  lang: AdminLang;
  choose: (lang: AdminLang) => void;
  children: ReactNode;
}) {
  const value = useMemo<I18n>(() => {
    const t = adminT(lang);
    return {
      lang,
      choose,
      t,
      error: (key) =>
        key === undefined ? undefined : t(isAdminMessageKey(key) ? key : 'admin.error.invalid'),
      dateTime: (at) => new Date(at).toLocaleString(LOCALES[lang]),
      // Noon UTC of the day, written in UTC: the same calendar day in every time zone.
      day: (date) =>
        new Date(`${date.slice(0, 10)}T12:00:00Z`).toLocaleDateString(LOCALES[lang], {
          weekday: 'short',
          day: 'numeric',
          month: 'numeric',
          year: 'numeric',
          timeZone: 'UTC',
        }),
      money: (cents) => formatPrice(cents),
    };
  }, [lang, choose]);
  document.documentElement.lang = lang;
  return (
    <Context.Provider value={value}>
      <I18nProvider locale={LOCALES[lang]}>{children}</I18nProvider>
    </Context.Provider>
  );
}

export const useT = () => useContext(Context);

export type { AdminMessageKey };

const LANG_KEY = 'kattaus-admin-lang';

/** Remembers the language of the last person signed in here, for the next sign-in page. */
export function rememberLang(lang: AdminLang): void {
  localStorage.setItem(LANG_KEY, lang);
}

/**
 * The language to start in before anyone is signed in: the last one used here, else the
 * browser's if it is one of ours, else Finnish.
 */
export function browserLang(): AdminLang {
  const stored = localStorage.getItem(LANG_KEY);
  if (stored === 'fi' || stored === 'sv' || stored === 'en') return stored;
  const wanted = navigator.language.slice(0, 2);
  return wanted === 'sv' || wanted === 'en' ? wanted : 'fi';
}
