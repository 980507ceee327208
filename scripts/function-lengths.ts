import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Node, type SourceFile, SyntaxKind } from 'typescript/unstable/ast';
import { API } from 'typescript/unstable/sync';

/**
 * The longest functions of a TypeScript project, measured by the TypeScript compiler: every
 * function declaration, function expression, arrow function, method, constructor and accessor,
 * from the line its code starts on (after comments) to the line it ends on. A function inside
 * another is measured on its own too, and named after the functions around it.
 *
 *   npx tsx scripts/function-lengths.ts [--project tsconfig.json] [--under src] [--most 10]
 *     [--tests]
 *
 * Test files (`*.test.ts(x)`, `*.test-support.ts`, `*.spec.ts`) are left out unless `--tests`.
 */

export interface FunctionLength {
  /** Path relative to the project's folder, with `/`. */
  file: string;
  /** 1-based line of the function's first code line. */
  line: number;
  lines: number;
  /** `outer › inner`; an anonymous function is named by where it stands. */
  name: string;
}

export interface MeasureOptions {
  /** The tsconfig.json whose program is read. */
  project: string;
  /** Only files below this folder (relative to the project's folder). */
  under?: string;
  tests?: boolean;
}

const FUNCTIONS = new Set<SyntaxKind>([
  SyntaxKind.FunctionDeclaration,
  SyntaxKind.FunctionExpression,
  SyntaxKind.ArrowFunction,
  SyntaxKind.MethodDeclaration,
  SyntaxKind.Constructor,
  SyntaxKind.GetAccessor,
  SyntaxKind.SetAccessor,
]);
const TEST_FILE = /\.(test|spec)\.tsx?$|\.test-support\.tsx?$/;

/** Every function of the project's files, longest first (then by file and line). */
export function measureFunctions(options: MeasureOptions): FunctionLength[] {
  const project = path.resolve(options.project);
  const root = path.dirname(project);
  const below = path.resolve(root, options.under ?? '.') + path.sep;
  const api = new API({ cwd: root });
  try {
    const snapshot = api.updateSnapshot({ openProject: project });
    const program = snapshot.getProject(project)?.program;
    if (!program) throw new Error(`No project at ${project}`);
    const found: FunctionLength[] = [];
    for (const fileName of program.getSourceFileNames()) {
      const absolute = path.resolve(fileName);
      if (!absolute.startsWith(below) || absolute.includes(`${path.sep}node_modules${path.sep}`)) {
        continue;
      }
      if (absolute.endsWith('.d.ts') || (!options.tests && TEST_FILE.test(absolute))) continue;
      const source = program.getSourceFile(fileName);
      if (!source) continue;
      const file = path.relative(root, absolute).split(path.sep).join('/');
      found.push(...functionsOf(source, file));
    }
    return found.sort(
      (a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line,
    );
  } finally {
    api.close();
  }
}

/** The functions of one parsed file. */
export function functionsOf(source: SourceFile, file: string): FunctionLength[] {
  const found: FunctionLength[] = [];
  const visit = (node: Node, outer: string[]): undefined => {
    let inside = outer;
    if (FUNCTIONS.has(node.kind)) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.end).line;
      inside = [...outer, nameOf(node, source)];
      found.push({ file, line: start + 1, lines: end - start + 1, name: inside.join(' › ') });
    }
    node.forEachChild((child) => visit(child, inside));
    return undefined;
  };
  visit(source, []);
  return found;
}

type Named = Node & { name?: Node };

/** A function's own name, or the name of what it is given to: `x = () => …`, `f(…, () => …)`. */
function nameOf(node: Node, source: SourceFile): string {
  const parent = node.parent as Named;
  const own =
    node.kind === SyntaxKind.Constructor ? 'constructor' : (node as Named).name?.getText(source);
  if (own) {
    const owner = parent.kind === SyntaxKind.ClassDeclaration ? parent.name?.getText(source) : '';
    return owner ? `${owner}.${own}` : own;
  }
  switch (parent.kind) {
    case SyntaxKind.VariableDeclaration:
    case SyntaxKind.PropertyAssignment:
    case SyntaxKind.PropertyDeclaration:
      return parent.name?.getText(source) ?? 'anonymous';
    case SyntaxKind.CallExpression: {
      const callee = (parent as Node & { expression: Node }).expression.getText(source);
      return `${callee.replace(/\s+/g, '')}(…)`;
    }
    case SyntaxKind.ReturnStatement:
      return 'returned';
    case SyntaxKind.ExportAssignment:
      return 'default';
    case SyntaxKind.JsxExpression:
      return 'jsx';
    default:
      return 'anonymous';
  }
}

/** The table the command prints: lines, place, name. */
export function formatLengths(rows: readonly FunctionLength[]): string {
  const width = String(rows[0]?.lines ?? 0).length;
  return rows
    .map((row) => `${String(row.lines).padStart(width)}  ${row.file}:${row.line}  ${row.name}`)
    .join('\n');
}

function option(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const most = Number(option(args, '--most') ?? 10);
  const rows = measureFunctions({
    project: option(args, '--project') ?? 'tsconfig.json',
    under: option(args, '--under') ?? 'src',
    tests: args.includes('--tests'),
  });
  console.info(formatLengths(rows.slice(0, Number.isInteger(most) && most > 0 ? most : 10)));
}
