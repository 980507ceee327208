/**
 * Which texts each island shows, read from the source at build time (decision 160): the islands'
 * modules are found in the registries (`src/features/<feature>/islands.ts`, the joined islands of
 * `src/app/islands.ts`), and from each the modules it imports, statically or lazily, are read for
 * the text keys they name. The build gives each island only those texts
 * (`virtual:island-texts/<lang>/<island>`, vite.config.ts); the JavaScript budget's measurement
 * (`page-javascript.ts`) uses the same registry reading to find an island's chunks.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** `'name': () => import('./x.tsx')…` in a feature's table of lazy imports. */
const LAZY_IMPORT = /['"]?([\w-]+)['"]?\s*:\s*\(\)\s*=>\s*import\(\s*['"]([^'"]+)['"]\s*\)/g;
/** `'name': joined(a.withPart, b.part)` in the app's registry: an island of two features' parts. */
const JOINED = /['"]([\w-]+)['"]\s*:\s*joined\(\s*\w+\.(\w+)\s*,\s*\w+\.(\w+)\s*,?\s*\)/g;

/** A module of an island's code and the export the registry takes from it. */
export interface IslandCode {
  /** The repository-relative source file. */
  file: string;
  /** The name of the export. */
  name: string;
}

export interface IslandModules {
  /** Island (or part) name → the repository-relative source files of its lazy imports. */
  byName: Map<string, string[]>;
  /**
   * Island (or part) name → the module exports its registry entry takes: one, or for an island
   * the app joins of two parts, the part that takes the other (`joined(withPart, part)`) first.
   * The server names them in the island's element for the browser (decision 161).
   */
  code: Map<string, IslandCode[]>;
  /** The names that are islands a page can hold (the features' parts are left out). */
  islands: string[];
}

/**
 * The export a lazy import's `.then` takes from the module: `.then((m) => m.Name)`, or the
 * `return m.Name` of a callback with a body (`.then(async (m) => { …; return m.Name; })`).
 */
function exportTaken(source: string, from: number, where: string): string {
  const callback = /^\s*\.then\(\s*(?:async\s*)?\(?\s*(\w+)\s*\)?\s*=>\s*/.exec(source.slice(from));
  const param = callback?.[1];
  if (!callback || !param) throw new Error(`${where}: no .then((m) => m.Export) after the import`);
  const rest = source.slice(from + callback[0].length);
  const taken = rest.startsWith('{')
    ? new RegExp(`\\breturn\\s+${param}\\.(\\w+)\\s*;\\s*$`).exec(blockAt(rest))
    : new RegExp(`^${param}\\.(\\w+)\\s*\\)`).exec(rest);
  if (!taken?.[1]) throw new Error(`${where}: the export the import takes is not m.Name`);
  return taken[1];
}

/** The body of the block that `source` starts with, up to its closing brace. */
function blockAt(source: string): string {
  let depth = 0;
  for (let i = 0; i < source.length; i++) {
    if (source[i] === '{') depth++;
    else if (source[i] === '}' && --depth === 0) return source.slice(1, i);
  }
  return '';
}

/**
 * The islands' modules, from the registries' source: each feature's `islands.ts` (islands and
 * parts alike are `name: () => import('./module.tsx')`), and the app's joined islands, made of
 * two parts. Parts (`…IslandParts`) are listed by name too, but are not islands.
 */
export function islandModules(root: string): IslandModules {
  const byName = new Map<string, string[]>();
  const code = new Map<string, IslandCode[]>();
  const islands: string[] = [];
  const featuresDir = path.join(root, 'src/features');
  for (const feature of existsSync(featuresDir) ? readdirSync(featuresDir).sort() : []) {
    const registryFile = path.join(featuresDir, feature, 'islands.ts');
    if (!existsSync(registryFile)) continue;
    const source = readFileSync(registryFile, 'utf8');
    // The part tables come after the islands' table, under a name ending in `IslandParts`.
    const partsAt = source.search(/export const \w+IslandParts\b/);
    for (const match of source.matchAll(LAZY_IMPORT)) {
      const [, name, spec] = match;
      if (!name || !spec) continue;
      const file = path.posix.join('src/features', feature, spec);
      byName.set(name, [file]);
      const where = `src/features/${feature}/islands.ts: ${name}`;
      code.set(name, [{ file, name: exportTaken(source, match.index + match[0].length, where) }]);
      if (partsAt < 0 || (match.index ?? 0) < partsAt) islands.push(name);
    }
  }
  const appRegistry = path.join(root, 'src/app/islands.ts');
  if (existsSync(appRegistry)) {
    for (const [, name, ...parts] of readFileSync(appRegistry, 'utf8').matchAll(JOINED)) {
      if (!name) continue;
      const joined = parts.map((part) => code.get(part ?? '')?.[0]);
      if (joined.every((c) => c !== undefined)) {
        byName.set(
          name,
          joined.map((c) => c.file),
        );
        code.set(name, joined);
        islands.push(name);
      }
    }
  }
  return { byName, code, islands };
}

/** `import … from './x'`, `export … from './x'`, `import './x'` and `import('./x')`; not `import type`. */
const IMPORT_SPEC =
  /\b(?:import|export)\s+(type\s+)?(?:[\w*${},\s]+?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
/** Marks texts a module shows that its source does not name: keys the server sends. */
const TEXTS_MARK = /@texts\s+([\w.,\s]+)/g;

/** The relative imports of a module's source: static ones and lazy ones, repository-relative. */
export function importsOf(root: string, file: string): { static: string[]; lazy: string[] } {
  const found = { static: [] as string[], lazy: [] as string[] };
  const source = readFileSync(path.join(root, file), 'utf8');
  for (const m of source.matchAll(IMPORT_SPEC)) {
    if (m[1]) continue;
    const spec = m[2] ?? m[3];
    if (!spec || !/\.[cm]?[jt]sx?$/.test(spec)) continue;
    const next = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
    if (existsSync(path.join(root, next))) (m[3] ? found.lazy : found.static).push(next);
  }
  return found;
}

/**
 * The browser modules `entries` load (repository-relative paths), themselves included: every
 * relative import followed, static ones and, unless `lazy` is false, lazy ones; type-only imports,
 * style sheets and packages are not.
 */
export function moduleGraph(
  root: string,
  entries: readonly string[],
  options: { lazy?: boolean } = {},
): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const imports = importsOf(root, file);
    for (const next of imports.static) visit(next);
    if (options.lazy !== false) for (const next of imports.lazy) visit(next);
  };
  for (const entry of entries) visit(entry);
  return [...seen];
}

/**
 * The keys of `keys` that a module's source names: a string that is a key (`'shop.buy.add'`);
 * a string or the start of a template that ends in a dot, or a string that a dot makes the start
 * of keys (`'shop.couponBox'` for `` `${messages}.heading` ``, `` `language.name.${lang}` ``):
 * every key that starts so; and the prefixes of an `@texts` mark in a comment, for texts that
 * arrive as keys from the server. Comments are not read otherwise.
 */
export function textKeysOf(source: string, keys: readonly string[]): Set<string> {
  const known = new Set(keys);
  const found = new Set<string>();
  const addPrefix = (prefix: string) => {
    for (const key of keys) if (key.startsWith(prefix)) found.add(key);
  };
  for (const [, list] of source.matchAll(TEXTS_MARK))
    for (const prefix of list?.split(/[\s,]+/) ?? []) if (prefix.includes('.')) addPrefix(prefix);
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:\\'"`])\/\/.*$/gm, '$1');
  for (const [, , text] of code.matchAll(/(['"`])([\w.-]+?)(?:\1|\$\{)/g)) {
    if (!text?.includes('.')) continue;
    if (known.has(text)) found.add(text);
    else if (text.endsWith('.')) addPrefix(text);
    else addPrefix(`${text}.`);
  }
  return found;
}

/** The registries `islandModules` reads (absolute paths), for a build to watch. */
export function islandRegistryFiles(root: string): string[] {
  const featuresDir = path.join(root, 'src/features');
  const features = existsSync(featuresDir) ? readdirSync(featuresDir) : [];
  return [
    ...features.map((feature) => path.join(featuresDir, feature, 'islands.ts')),
    path.join(root, 'src/app/islands.ts'),
  ].filter((file) => existsSync(file));
}

/** The keys of `keys` that the modules `files` name (see `textKeysOf`), in the catalogue's order. */
function keysOfFiles(root: string, keys: readonly string[], files: readonly string[]): string[] {
  const found = new Set<string>();
  for (const file of files)
    for (const key of textKeysOf(readFileSync(path.join(root, file), 'utf8'), keys)) found.add(key);
  return keys.filter((k) => found.has(k));
}

const browserModule = (f: string) => !/\.server\.tsx?$/.test(f);

/**
 * The keys an island shows on hydration (see `textKeysOf`) over the modules it loads with its code
 * (static imports), in the catalogue's order, and those modules; undefined for a name that is no
 * island. What its code loads lazily (a dialog when it opens, a deferred part) brings its own
 * texts (`partTextKeys`, decision 161).
 */
export function islandTextKeys(
  root: string,
  keys: readonly string[],
  island: string,
  modules: IslandModules = islandModules(root),
): { files: string[]; keys: string[]; parts: string[] } | undefined {
  const entries = modules.byName.get(island);
  if (!entries || !modules.islands.includes(island)) return undefined;
  const files = moduleGraph(root, entries, { lazy: false }).filter(browserModule);
  const parts = [...new Set(files.flatMap((f) => importsOf(root, f).lazy))].filter(browserModule);
  return { files, keys: keysOfFiles(root, keys, files), parts };
}

/**
 * The keys a module that island code loads lazily shows (a part), over the modules it loads with
 * it (static imports): the build gives it a texts module of its own in each language, which the
 * browser loads with the part's code (`virtual:part-texts/<lang>/<file>`, vite.config.ts).
 */
export function partTextKeys(
  root: string,
  keys: readonly string[],
  part: string,
): { files: string[]; keys: string[] } {
  const files = moduleGraph(root, [part], { lazy: false }).filter(browserModule);
  return { files, keys: keysOfFiles(root, keys, files) };
}

/**
 * Every part the islands' code loads lazily, at any depth, with the keys it shows: those that
 * show any have texts of their own.
 */
export function partsWithTexts(
  root: string,
  keys: readonly string[],
  modules: IslandModules = islandModules(root),
): Map<string, string[]> {
  const parts = new Map<string, string[]>();
  const visit = (part: string) => {
    if (parts.has(part)) return;
    const found = partTextKeys(root, keys, part);
    parts.set(part, found.keys);
    for (const f of found.files) for (const next of importsOf(root, f).lazy) visit(next);
  };
  for (const island of modules.islands)
    for (const part of islandTextKeys(root, keys, island, modules)?.parts ?? []) visit(part);
  for (const [part, found] of parts) if (found.length === 0) parts.delete(part);
  return parts;
}
