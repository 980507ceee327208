import { createRequire } from 'node:module';

/**
 * Finnish morphology from Voikko (Debian's `libvoikko1` with the `voikko-fi` dictionary), called
 * through koffi's C FFI: `voikkoInit`, `voikkoAnalyzeWordCstr`, `voikko_mor_analysis_keys` and
 * `voikko_mor_analysis_value_cstr` of libvoikko's public C API (voikko.h, voikko_defines.h).
 * When koffi, the library or the dictionary is missing, `loadVoikko` answers undefined and search
 * uses its rule-based analyser instead (decision 046).
 */

/** One reading of a word: its base form and the base forms of its parts (compounds, derivations). */
export interface VoikkoReading {
  /** BASEFORM: `kinkun` → kinkku, `grillimakkarat` → grillimakkara. */
  baseform: string;
  /**
   * WORDBASES, read: the base of each part. `+grilli(grilli)+makkara(makkara)` → grilli, makkara;
   * `+grillat(grillata)+tav+a(+a)` → grillata (the verb a participle is made of).
   */
  bases: string[];
}

export interface Voikko {
  analyse(word: string): VoikkoReading[];
}

type Fn = (...args: unknown[]) => unknown;

let loaded: Voikko | null | undefined;

/** The Finnish analyser, or undefined when this machine lacks koffi, libvoikko or voikko-fi. */
export function loadVoikko(): Voikko | undefined {
  if (loaded !== undefined) return loaded ?? undefined;
  loaded = null;
  try {
    const require = createRequire(import.meta.url);
    const koffi = require('koffi') as {
      load(path: string): { func(signature: string): Fn };
      decode(pointer: unknown, offset: number, type: string, length?: number): unknown;
      decode(pointer: unknown, type: string, length?: number): unknown;
    };
    const lib = koffi.load('libvoikko.so.1');
    const init = lib.func(
      'void *voikkoInit(_Out_ const char **error, const char *langcode, const char *path)',
    );
    const analyzeWord = lib.func('void **voikkoAnalyzeWordCstr(void *handle, const char *word)');
    const analysisValue = lib.func(
      'void *voikko_mor_analysis_value_cstr(void *analysis, const char *key)',
    );
    const freeValue = lib.func('void voikko_free_mor_analysis_value_cstr(void *value)');
    const freeAnalyses = lib.func('void voikko_free_mor_analysis(void **analysis)');
    const error: (string | null)[] = [null];
    const handle = init(error, 'fi', null);
    if (!handle) return undefined;
    const read = (analysis: unknown, key: string): string | undefined => {
      const value = analysisValue(analysis, key);
      if (!value) return undefined;
      const text = koffi.decode(value, 'char', -1) as string;
      freeValue(value);
      return text;
    };
    loaded = {
      analyse(word) {
        const list = analyzeWord(handle, word);
        if (!list) return [];
        const readings: VoikkoReading[] = [];
        try {
          for (let i = 0; ; i++) {
            const analysis = koffi.decode(list, i * 8, 'void *');
            if (!analysis) break;
            const baseform = read(analysis, 'BASEFORM');
            if (!baseform) continue;
            readings.push({
              baseform: baseform.toLowerCase(),
              bases: basesOf(read(analysis, 'WORDBASES') ?? ''),
            });
          }
        } finally {
          freeAnalyses(list);
        }
        return readings;
      },
    };
    return loaded;
  } catch {
    loaded = null;
    return undefined;
  }
}

/** The bases of WORDBASES: `+jauhe(jauhe)+liha(liha)+keitto(keitto)` → jauhe, liha, keitto. */
export function basesOf(wordbases: string): string[] {
  const bases: string[] = [];
  for (const match of wordbases.matchAll(/\(([^)]*)\)/g)) {
    const base = (match[1] ?? '').toLowerCase();
    // `(+to)`, `(+a)`: derivational endings, not words.
    if (base && !base.startsWith('+')) bases.push(base);
  }
  return bases;
}
