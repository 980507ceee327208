import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatLengths, measureFunctions } from './function-lengths.ts';

/** A project of its own: each kind of function, of a length counted by hand. */
const FILES: Record<string, string> = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: { strict: true, jsx: 'react-jsx', noEmit: true },
    include: ['src', 'other'],
  }),
  // 1-based lines: `long` 3–8 (6), `arrow` 10–12 (3), the method 15–19 (5), the class's
  // constructor 14 (1), the handler given to `app.post` 22–25 (4) inside `routes` 21–26 (6),
  // the function `routes` returns 28 (1, inside routes2 27–29).
  'src/a.ts': `// a comment above is not counted
/** Nor is the doc comment. */
export function long(a: number): number {
  let b = a;
  b += 1;
  b *= 2;
  return b;
}

export const arrow = (x: string) =>
  x
    .trim();
export class Shape {
  constructor(readonly size: number) {}
  area(): number {
    const s = this.size;
    const t = s * s;
    return t;
  }
}
export function routes(app: { post(path: string, handler: () => string): void }) {
  app.post('/x', () => {
    const answer = 'x';
    return answer;
  });
}
export function routes2() {
  return () => 1;
}
`,
  'src/b.tsx': `export function View(props: { items: string[] }) {
  return (
    <ul>
      {props.items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}
`,
  'src/a.test.ts': `export function veryLongTestHelper() {
  return [
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
  ].length;
}
`,
  'other/c.ts': `export function outside() {
  return 1;
}
`,
};

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'function-lengths-'));
  for (const [name, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('measureFunctions', () => {
  it('measures every kind of function below the folder, longest first, tests left out', () => {
    const rows = measureFunctions({ project: path.join(dir, 'tsconfig.json'), under: 'src' });
    expect(rows.map((r) => [r.lines, `${r.file}:${r.line}`, r.name])).toEqual([
      [9, 'src/b.tsx:1', 'View'],
      [6, 'src/a.ts:3', 'long'],
      [6, 'src/a.ts:21', 'routes'],
      [5, 'src/a.ts:15', 'Shape.area'],
      [4, 'src/a.ts:22', 'routes › app.post(…)'],
      [3, 'src/a.ts:10', 'arrow'],
      [3, 'src/a.ts:27', 'routes2'],
      [3, 'src/b.tsx:4', 'View › props.items.map(…)'],
      [1, 'src/a.ts:14', 'Shape.constructor'],
      [1, 'src/a.ts:28', 'routes2 › returned'],
    ]);
  });

  it('takes test files when asked, and the whole project without a folder', () => {
    const rows = measureFunctions({ project: path.join(dir, 'tsconfig.json'), tests: true });
    const files = new Set(rows.map((r) => r.file));
    expect(files).toEqual(new Set(['src/a.ts', 'src/b.tsx', 'src/a.test.ts', 'other/c.ts']));
    expect(rows.find((r) => r.name === 'veryLongTestHelper')?.lines).toBe(6);
  });

  it('prints a table with the lengths aligned', () => {
    expect(
      formatLengths([
        { file: 'src/x.ts', line: 40, lines: 120, name: 'big' },
        { file: 'src/y.ts', line: 2, lines: 9, name: 'small › returned' },
      ]),
    ).toBe('120  src/x.ts:40  big\n  9  src/y.ts:2  small › returned');
  });
});
