import type { Lang } from '../sites/types.ts';
import type { MessageKey, Messages } from './fi.ts';

export type { MessageKey, Messages };
export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

/** Builds `t()` over one catalogue; `{name}` placeholders are replaced by `values.name`. */
export function translator(messages: Messages): Translate {
  return (key, values) => {
    const text = messages[key] ?? key;
    if (!values) return text;
    return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
      Object.hasOwn(values, name) ? String(values[name]) : whole,
    );
  };
}

export type CatalogueLoader = (lang: Lang) => Promise<Messages>;
