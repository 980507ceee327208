import type { Lang } from '../sites/types.ts';
import { adminEn } from './admin-en.ts';
import { type AdminMessageKey, type AdminMessages, adminFi } from './admin-fi.ts';
import { adminSv } from './admin-sv.ts';

export type { AdminMessageKey, AdminMessages };
export type AdminTranslate = (
  key: AdminMessageKey,
  values?: Record<string, string | number>,
) => string;

export const adminCatalogues: Record<Lang, AdminMessages> = {
  fi: adminFi,
  sv: adminSv,
  en: adminEn,
};

/** `t()` over the back office's catalogue; `{name}` placeholders are filled from `values`. */
export function adminTranslator(messages: AdminMessages): AdminTranslate {
  return (key, values) => {
    const text = Object.hasOwn(messages, key) ? messages[key] : key;
    if (!values) return text;
    return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
      Object.hasOwn(values, name) ? String(values[name]) : whole,
    );
  };
}

/** The back office's `t()` in a language (Finnish for anything else). */
export function adminT(lang: string): AdminTranslate {
  return adminTranslator(adminCatalogues[lang === 'sv' || lang === 'en' ? lang : 'fi']);
}

/** Whether a message key (an API's field error) has a text in the back office's catalogue. */
export function isAdminMessageKey(key: string): key is AdminMessageKey {
  return Object.hasOwn(adminFi, key);
}
