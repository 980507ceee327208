import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, TEST, tableModulesOf, violations } from './imports.ts';

const fixture = path.resolve('tests/architecture/fixture');

describe('the import rules', () => {
  it('hold for src/', () => {
    const imports = importsOf(path.resolve('src'));
    // The walk sees the code: a failure to read imports must not pass as "no violations".
    expect(imports.length).toBeGreaterThan(300);
    expect(imports.some((i) => i.from.startsWith('app/') && i.to.startsWith('features/'))).toBe(
      true,
    );
    const tables = tableModulesOf(path.resolve('src'));
    expect(tables).toContain('features/shop/tables.ts');
    expect(tables).toContain('server/tables.ts');
    expect(violations(imports, tables).map((v) => v.message)).toEqual([]);
  });

  it('catch every kind of forbidden import (fixture)', () => {
    const found = violations(importsOf(fixture), tableModulesOf(fixture));
    const messages = found.map((v) => `${v.rule}: ${v.message}`).sort();
    expect(messages).toEqual([
      'feature-cycle: feature folders import each other: features/a → features/b → features/a',
      'feature-surface: features/b/widget.tsx imports features/a/inner.ts: use features/a/index.ts or index.server.ts',
      'layer: db/client.ts imports server/config.ts: db is below server',
      'layer: features/b/index.ts imports app/registry.ts: features are below the app',
      'layer: render/page.tsx imports features/a/index.ts: render is below features/a',
      'layer: server/app.ts imports app/registry.ts: server is below app',
      "table-ownership: features/b/rows.server.ts imports features/a/tables.ts: read features/a's tables through what features/a/index.server.ts exports",
      "table-ownership: features/b/stray.server.ts defines tables: features/b's tables belong in its tables.ts",
    ]);
  });

  it('let tests reach anywhere', () => {
    const imports = importsOf(fixture);
    expect(imports.some((i) => i.from.endsWith('.test.ts'))).toBe(false);
  });
});

describe('test support', () => {
  it('beside the code is named *.test-support.ts (shared test data and helpers are in tests/)', () => {
    const files = readdirSync(path.resolve('src'), { recursive: true, encoding: 'utf8' });
    expect(files.filter((f) => f.endsWith('.test-support.ts')).length).toBeGreaterThan(0);
    const misnamed = files.filter(
      (file) =>
        /(^|[/._-])tests?([/._-]|$)/.test(file.split(path.sep).join('/')) && !TEST.test(file),
    );
    expect(misnamed).toEqual([]);
  });
});
