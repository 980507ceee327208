/**
 * The index of the decision log (docs/decisions/README.md), made from the records' headers.
 *
 *   npx tsx scripts/decision-index.ts           rewrites the index between the README's markers
 *   npx tsx scripts/decision-index.ts --check   exits 1 when the index is out of date or a
 *                                               record's header is wrong; changes nothing
 *
 * A record is `NNN-title.md`: its first line `# NNN Title`, then header lines before its first
 * `## ` section: `Status:`, `Date: YYYY-MM-DD`, and any number of `Supersedes: [NNN](file)` and
 * `Superseded by: [NNN](file)` lines, each optionally followed by `, in part: what`. A header
 * line may wrap onto the lines after it.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const DECISIONS_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'docs',
  'decisions',
);
export const INDEX_START =
  '<!-- decision-index:start (written by scripts/decision-index.ts from the records; do not edit) -->';
export const INDEX_END = '<!-- decision-index:end -->';

const RECORD_FILE = /^(\d{3})-[a-z0-9-]+\.md$/;
const STATUSES = ['proposed', 'accepted', 'rejected'];
const FIELDS = ['Status', 'Date', 'Supersedes', 'Superseded by'] as const;
type Field = (typeof FIELDS)[number];

export interface Relation {
  /** The other record's number. */
  number: string;
  file: string;
  inPart: boolean;
  /** What of the older record is superseded, for a supersession in part. */
  what: string;
}

export interface DecisionRecord {
  number: string;
  file: string;
  title: string;
  /** The first word of the Status line: proposed, accepted or rejected. */
  status: string;
  date: string;
  supersedes: Relation[];
  supersededBy: Relation[];
}

export interface DecisionLog {
  records: DecisionRecord[];
  /** Every header that breaks the rules of the README, as `file: what`. */
  problems: string[];
}

/** The header lines of a record, before its first section, joined where a line wraps. */
function headerFields(lines: string[]): { field: Field; value: string }[] {
  const fields: { field: Field; value: string }[] = [];
  let current: { field: Field; value: string } | undefined;
  for (const line of lines.slice(1)) {
    if (line.startsWith('## ')) break;
    const field = FIELDS.find((name) => line.startsWith(`${name}:`));
    if (field) {
      current = { field, value: line.slice(field.length + 1).trim() };
      fields.push(current);
    } else if (line.trim() === '') {
      current = undefined;
    } else if (current) {
      current.value += ` ${line.trim()}`;
    }
  }
  return fields;
}

function parseRelation(
  value: string,
  files: Map<string, string>,
  problem: (what: string) => void,
): Relation | undefined {
  const match = /^\[(\d{3})\]\(([^)\s]+)\)(.*)$/.exec(value);
  if (!match) {
    problem(`"${value}" does not start with a link [NNN](NNN-title.md)`);
    return undefined;
  }
  const [, number = '', file = '', rest = ''] = match;
  if (files.get(number) !== file) {
    problem(`[${number}](${file}) is not the file of record ${number}`);
  }
  const part = /^, in part: (.+)$/.exec(rest);
  if (rest !== '' && !part) {
    problem(`after [${number}](${file}) expected nothing or ", in part: what", found "${rest}"`);
  }
  return { number, file, inPart: rest !== '', what: part?.[1] ?? '' };
}

function isDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** Reads every record of the folder and checks each header on its own and against the others. */
export function readDecisionLog(dir: string = DECISIONS_DIR): DecisionLog {
  const names = readdirSync(dir)
    .filter((name) => RECORD_FILE.test(name))
    .sort();
  const files = new Map<string, string>();
  const problems: string[] = [];
  for (const name of names) {
    const number = name.slice(0, 3);
    const other = files.get(number);
    if (other) problems.push(`${name}: number ${number} is also ${other}`);
    else files.set(number, name);
  }
  for (const name of readdirSync(dir)) {
    if (name.endsWith('.md') && name !== 'README.md' && !RECORD_FILE.test(name)) {
      problems.push(`${name}: not named NNN-title.md (lower case, digits and hyphens)`);
    }
  }

  const records: DecisionRecord[] = [];
  for (const file of names) {
    const problem = (what: string) => problems.push(`${file}: ${what}`);
    const number = file.slice(0, 3);
    const lines = readFileSync(path.join(dir, file), 'utf8').split('\n');
    const heading = /^# (\d{3}) (.+)$/.exec(lines[0] ?? '');
    if (!heading) problem('the first line is not "# NNN Title"');
    else if (heading[1] !== number) problem(`the heading's number ${heading[1]} is not ${number}`);

    const fields = headerFields(lines);
    const values = (field: Field) => fields.filter((f) => f.field === field).map((f) => f.value);
    const [statusLine, ...moreStatus] = values('Status');
    const [date, ...moreDates] = values('Date');
    const status = (statusLine ?? '').split(/[\s.,;]/)[0]?.toLowerCase() ?? '';
    if (statusLine === undefined) problem('no Status line');
    else if (!STATUSES.includes(status)) {
      problem(`Status "${status}" is not one of ${STATUSES.join(', ')}`);
    }
    if (moreStatus.length > 0) problem('more than one Status line');
    if (date === undefined) problem('no Date line');
    else if (!isDate(date)) problem(`Date "${date}" is not a date written YYYY-MM-DD`);
    if (moreDates.length > 0) problem('more than one Date line');

    const relations = (field: Field) =>
      values(field)
        .map((value) => parseRelation(value, files, problem))
        .filter((relation): relation is Relation => relation !== undefined);
    records.push({
      number,
      file,
      title: heading?.[2] ?? file,
      status,
      date: date ?? '',
      supersedes: relations('Supersedes'),
      supersededBy: relations('Superseded by'),
    });
  }

  // Both ends of a supersession name it, the same way.
  const byNumber = new Map(records.map((record) => [record.number, record]));
  for (const record of records) {
    for (const older of record.supersedes) {
      const olderRecord = byNumber.get(older.number);
      const other = olderRecord?.supersededBy.find((r) => r.number === record.number);
      if (olderRecord && !other) {
        problems.push(
          `${olderRecord.file}: no "Superseded by: [${record.number}](${record.file})" line, though ${record.file} supersedes it`,
        );
      } else if (olderRecord && other && other.inPart !== older.inPart) {
        problems.push(
          `${olderRecord.file} and ${record.file}: one says "in part", the other does not`,
        );
      }
      if (older.number >= record.number) {
        problems.push(`${record.file}: supersedes ${older.number}, which is not an earlier record`);
      }
    }
    for (const newer of record.supersededBy) {
      const newerRecord = byNumber.get(newer.number);
      if (newerRecord && !newerRecord.supersedes.some((r) => r.number === record.number)) {
        problems.push(
          `${newerRecord.file}: no "Supersedes: [${record.number}](${record.file})" line, though ${record.file} says it is superseded by it`,
        );
      }
    }
  }
  return { records, problems };
}

/** The status the index shows: the Status line's, or what later records made of it. */
export function shownStatus(record: DecisionRecord): string {
  if (record.supersededBy.some((relation) => !relation.inPart)) return 'superseded';
  if (record.supersededBy.length > 0) return `${record.status}, superseded in part`;
  return record.status;
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|');
}

function relationsCell(relations: Relation[]): string {
  return relations.map((r) => `[${r.number}](${r.file})${r.inPart ? ' in part' : ''}`).join(', ');
}

/** The index table, as it stands between the markers. */
export function renderIndex(records: DecisionRecord[]): string {
  const rows = [...records]
    .sort((a, b) => a.number.localeCompare(b.number))
    .map((record) =>
      [
        `[${record.number}](${record.file})`,
        cell(record.title),
        record.date,
        shownStatus(record),
        relationsCell(record.supersedes),
        relationsCell(record.supersededBy),
      ].join(' | '),
    )
    .map((row) => `| ${row} |`.replace(/ +\|/g, ' |'));
  return [
    '| No. | Decision | Date | Status | Supersedes | Superseded by |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

/** The README with its index replaced by one made from the records. */
export function withIndex(readme: string, records: DecisionRecord[]): string {
  const start = readme.indexOf(INDEX_START);
  const end = readme.indexOf(INDEX_END);
  if (start === -1 || end === -1 || end < start) {
    throw new Error(`the README has no "${INDEX_START}" … "${INDEX_END}" markers`);
  }
  return `${readme.slice(0, start + INDEX_START.length)}\n${renderIndex(records)}\n${readme.slice(end)}`;
}

export interface IndexCheck {
  upToDate: boolean;
  problems: string[];
}

/** Whether the README's index is the one the records give, and what is wrong in the headers. */
export function checkDecisionIndex(dir: string = DECISIONS_DIR): IndexCheck {
  const { records, problems } = readDecisionLog(dir);
  const readmePath = path.join(dir, 'README.md');
  if (!existsSync(readmePath)) return { upToDate: false, problems: [...problems, 'no README.md'] };
  const readme = readFileSync(readmePath, 'utf8');
  try {
    return { upToDate: withIndex(readme, records) === readme, problems };
  } catch (error) {
    return { upToDate: false, problems: [...problems, `README.md: ${(error as Error).message}`] };
  }
}

/** Rewrites the README's index; answers whether it changed. */
export function writeDecisionIndex(dir: string = DECISIONS_DIR): {
  changed: boolean;
  problems: string[];
} {
  const { records, problems } = readDecisionLog(dir);
  const readmePath = path.join(dir, 'README.md');
  const readme = readFileSync(readmePath, 'utf8');
  const next = withIndex(readme, records);
  if (next !== readme) writeFileSync(readmePath, next);
  return { changed: next !== readme, problems };
}

function main(args: string[]): number {
  const relative = path.relative(process.cwd(), path.join(DECISIONS_DIR, 'README.md'));
  const report = (problems: string[]) => {
    for (const problem of problems) process.stderr.write(`${problem}\n`);
  };
  if (args.includes('--check')) {
    const { upToDate, problems } = checkDecisionIndex();
    report(problems);
    if (!upToDate) {
      process.stderr.write(
        `${relative}: the index is out of date; run npx tsx scripts/decision-index.ts\n`,
      );
    }
    return upToDate && problems.length === 0 ? 0 : 1;
  }
  const { changed, problems } = writeDecisionIndex();
  report(problems);
  process.stdout.write(`${relative}: index ${changed ? 'rewritten' : 'already up to date'}\n`);
  return problems.length === 0 ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(main(process.argv.slice(2)));
}
