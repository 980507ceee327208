import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkDecisionIndex,
  INDEX_END,
  INDEX_START,
  writeDecisionIndex,
} from './decision-index.ts';

describe('the decision log', () => {
  it('has well-formed headers and an index that matches them', () => {
    expect(checkDecisionIndex()).toEqual({ upToDate: true, problems: [] });
  });
});

describe('checkDecisionIndex', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('finds a stale index and a supersession named at one end only', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'decisions-'));
    writeFileSync(path.join(dir, 'README.md'), `# Log\n\n${INDEX_START}\n${INDEX_END}\n`);
    writeFileSync(
      path.join(dir, '001-first.md'),
      '# 001 First\n\nStatus: accepted\n\nDate: 2026-11-22\n\n## Context\n',
    );
    writeFileSync(
      path.join(dir, '002-second.md'),
      '# 002 Second\n\nStatus: accepted\n\nDate: 2026-11-23\n\nSupersedes: [001](001-first.md)\n\n## Context\n',
    );
    expect(checkDecisionIndex(dir)).toEqual({
      upToDate: false,
      problems: [
        '001-first.md: no "Superseded by: [002](002-second.md)" line, though 002-second.md supersedes it',
      ],
    });

    writeFileSync(
      path.join(dir, '001-first.md'),
      '# 001 First\n\nStatus: accepted\n\nDate: 2026-11-22\n\nSuperseded by: [002](002-second.md)\n\n## Context\n',
    );
    expect(writeDecisionIndex(dir)).toEqual({ changed: true, problems: [] });
    expect(checkDecisionIndex(dir)).toEqual({ upToDate: true, problems: [] });
    expect(readFileSync(path.join(dir, 'README.md'), 'utf8')).toContain(
      '| [001](001-first.md) | First | 2026-11-22 | superseded | | [002](002-second.md) |',
    );
  });
});
