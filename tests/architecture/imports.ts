import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The import rules of `src/` (decision 016): the shared layers import no feature and not the
 * app; a feature reaches another only through its `index.ts` or `index.server.ts` (the app's
 * island registry also through its `islands.ts`, the /admin app through its `admin.ts`); feature
 * folders form no cycle. Tests and their support files are left out: they may reach anywhere.
 *
 * Table ownership (decision 126): an area's tables are defined in its `tables.ts` and nowhere
 * else, and another feature reads them only through what the owner's public surface exports.
 */

/** The shared layers, lowest first: a layer imports only its own folder and the ones before it. */
export const LAYERS = ['sites', 'i18n', 'db', 'server', 'images', 'render', 'client'] as const;
const SURFACES = new Set(['index.ts', 'index.server.ts']);

export interface Import {
  from: string;
  to: string;
  typeOnly: boolean;
}

export interface Violation {
  rule: 'layer' | 'feature-surface' | 'feature-cycle' | 'table-ownership';
  message: string;
}

const SOURCE = /\.(ts|tsx)$/;
/** Tests and the fixtures beside them (`*.test-support.ts`; shared test code lives in `tests/`). */
export const TEST = /\.test(-support)?\.(ts|tsx)$/;
const SPECIFIER =
  /(?:^|[\s;}])(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return walk(full);
    return SOURCE.test(entry.name) ? [full] : [];
  });
}

/** Every relative import of the source files under `root` (paths relative to `root`). */
export function importsOf(root: string): Import[] {
  const found: Import[] = [];
  for (const file of walk(root)) {
    const from = path.relative(root, file).split(path.sep).join('/');
    if (TEST.test(from)) continue;
    const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '');
    for (const match of text.matchAll(SPECIFIER)) {
      const specifier = match[3] ?? match[4];
      if (!specifier?.startsWith('.')) continue;
      const to = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
      found.push({ from, to, typeOnly: Boolean(match[2]) });
    }
  }
  return found;
}

/**
 * An area's tables module: `<layer>/tables.ts`, or a feature's `tables.ts` (at its root or in one of
 * its sub-modules, such as `features/<name>/<part>/tables.ts`).
 */
const TABLES_MODULE = /^(features\/[^/]+\/([^/]+\/)*|[^/]+\/)tables\.ts$/;
const DEFINES_TABLE = /\bpgTable\s*\(/;

/** The source files under `root` (tests left out) that define tables, relative to `root`. */
export function tableModulesOf(root: string): string[] {
  return walk(root)
    .map((file) => ({ file, name: path.relative(root, file).split(path.sep).join('/') }))
    .filter(({ file, name }) => !TEST.test(name) && DEFINES_TABLE.test(readFileSync(file, 'utf8')))
    .map(({ name }) => name);
}

/** `features/<name>`, a shared layer's name, `app`, or undefined for anything else. */
export function areaOf(file: string): string | undefined {
  const [top, second] = file.split('/');
  if (top === 'features') return second ? `features/${second}` : undefined;
  return top;
}

/**
 * Every broken rule. `tableModules` (from `tableModulesOf`) are the files that define tables;
 * without them the table rules check only imports of `tables.ts` files.
 */
export function violations(
  imports: readonly Import[],
  tableModules: readonly string[] = [],
): Violation[] {
  const found: Violation[] = [];
  for (const file of tableModules) {
    if (!TABLES_MODULE.test(file)) {
      found.push({
        rule: 'table-ownership',
        message: `${file} defines tables: ${areaOf(file)}'s tables belong in its tables.ts`,
      });
    }
  }
  const featureEdges = new Map<string, Set<string>>();
  for (const { from, to } of imports) {
    const source = areaOf(from);
    const target = areaOf(to);
    if (!source || !target || source === target) continue;
    const layer = LAYERS.indexOf(source as (typeof LAYERS)[number]);
    if (layer >= 0) {
      const targetLayer = LAYERS.indexOf(target as (typeof LAYERS)[number]);
      if (targetLayer < 0 || targetLayer > layer) {
        found.push({
          rule: 'layer',
          message: `${from} imports ${to}: ${source} is below ${target}`,
        });
      }
      continue;
    }
    if (source.startsWith('features/') && target === 'app') {
      found.push({ rule: 'layer', message: `${from} imports ${to}: features are below the app` });
    }
    if (target.startsWith('features/') && source !== target) {
      const surface = to.slice(target.length + 1);
      if (source.startsWith('features/') && TABLES_MODULE.test(to)) {
        found.push({
          rule: 'table-ownership',
          message: `${from} imports ${to}: read ${target}'s tables through what ${target}/index.server.ts exports`,
        });
      } else if (
        !SURFACES.has(surface) &&
        !(source === 'app' && surface === 'islands.ts') &&
        !(source === 'admin' && surface === 'admin.ts')
      ) {
        // The app's island registry also reads each feature's table of islands, and the back
        // office a feature's `admin.ts` (decision 145).
        found.push({
          rule: 'feature-surface',
          message: `${from} imports ${to}: use ${target}/index.ts or index.server.ts`,
        });
      }
      if (source.startsWith('features/')) {
        const edges = featureEdges.get(source) ?? new Set<string>();
        edges.add(target);
        featureEdges.set(source, edges);
      }
    }
  }
  for (const cycle of cyclesOf(featureEdges)) {
    found.push({ rule: 'feature-cycle', message: `feature folders import each other: ${cycle}` });
  }
  return found;
}

/** Each cycle of the graph once, as `a → b → a`. */
function cyclesOf(edges: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const cycles = new Set<string>();
  const visit = (node: string, trail: string[]) => {
    const at = trail.indexOf(node);
    if (at >= 0) {
      const loop = trail.slice(at);
      // The same cycle found from another start is written from its smallest node.
      const start = loop.indexOf([...loop].sort()[0] ?? node);
      const canonical = [...loop.slice(start), ...loop.slice(0, start)];
      cycles.add([...canonical, canonical[0]].join(' → '));
      return;
    }
    for (const next of edges.get(node) ?? []) visit(next, [...trail, node]);
  };
  for (const node of edges.keys()) visit(node, []);
  return [...cycles];
}
