import { type Lang, languages } from '../sites/types.ts';
import type { MessageKey, Messages } from './fi.ts';

export type { MessageKey, Messages };
export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

/** At most this many different misses are remembered (and so said) per process. */
const MAX_REPORTED = 500;
const reported = new Set<string>();

/**
 * Says a lookup miss once (spec shop §7: a translation lookup logs unknown locales or keys): a
 * text missing from a catalogue shows its key, which is easy to overlook on a page, while the same
 * miss on every render would flood the log.
 */
function reportOnce(message: string): void {
  if (reported.has(message) || reported.size >= MAX_REPORTED) return;
  reported.add(message);
  console.warn(message);
}

/** The catalogue language of a locale: itself when known; otherwise Finnish, said once. */
export function knownLang(locale: string | undefined): Lang {
  if ((languages as readonly (string | undefined)[]).includes(locale)) return locale as Lang;
  reportOnce(`i18n: unknown locale "${String(locale)}", using fi`);
  return 'fi';
}

/**
 * Builds `t()` over one catalogue; `{name}` placeholders are replaced by `values.name`. A key the
 * catalogue lacks shows as the key itself and is said once.
 */
export function translator(messages: Messages, locale: Lang = 'fi'): Translate {
  return (key, values) => {
    const found: unknown = Object.hasOwn(messages, key) ? messages[key] : undefined;
    if (typeof found !== 'string') reportOnce(`i18n: unknown key "${key}" in ${locale}`);
    const text = typeof found === 'string' ? found : key;
    if (!values) return text;
    return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
      Object.hasOwn(values, name) ? String(values[name]) : whole,
    );
  };
}

export type CatalogueLoader = (lang: Lang) => Promise<Messages>;
