/**
 * A publish reaches every process (issue 35, decisions 033 and 162): the production build started
 * as three processes on one PostgreSQL database with the demo content, each with its own page
 * cache and its own LISTEN connection. An editor of jyväbroileri, signed in on the first, makes
 * and publishes a recipe, `--rounds` times. Before each publish every process has the recipe
 * listing `/reseptit` in its page cache (a hit) and answers the new recipe's address with 404;
 * after the publish's answer each process is asked, again and again without pause, until its
 * listing is no longer the cached one and the recipe's address answers 200. Reported per
 * process: the time from the publish's answer until both hold (p50, p95, max); the goal is under
 * 1 s for every process in every round. Between rounds the editor also saves a draft, which must
 * leave every process's listing cached.
 *
 *   npm run build && DATABASE_URL=postgres://… npx tsx bench/publish-reach.ts [--rounds 20]
 *     [--processes 3]
 *
 * The database is one of its own on the server `DATABASE_URL` names, dropped at the end.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { RECIPES_ADMIN_API, type RecipeOpen } from '../src/features/content/publishing/schemas.ts';
import { enrolEditor, makeEditor, openRecipe, pageCacheState, someRecipe } from './editor.ts';
import {
  benchDatabase,
  figures,
  freePort,
  gitCommit,
  machine,
  ROOT,
  startWatchdog,
  stopProcess,
  waitForHealth,
  writeResults,
} from './support.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '20' },
    processes: { type: 'string', default: '3' },
  },
});
const ROUNDS = Number(values.rounds);
const PROCESSES = Number(values.processes);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1 || !Number.isInteger(PROCESSES) || PROCESSES < 2) {
  console.error('bench/publish-reach: --rounds ≥ 1 and --processes ≥ 2, whole numbers');
  process.exit(1);
}
const SERVER_ENTRY = path.join(ROOT, 'dist/server/main.js');
const HOST = 'jyvabroiler.localhost';
const LISTING = '/reseptit';
const GOAL_MS = 1000;
/** How long a process may take before the round counts as failed. */
const GIVE_UP_MS = 10_000;

if (!existsSync(SERVER_ENTRY)) {
  console.error('bench/publish-reach: no production build; run "npm run build" first');
  process.exit(1);
}

const watchdog = startWatchdog(15);
const database = await benchDatabase('publishreach');
const folders: string[] = [];
const servers: ChildProcess[] = [];
let exitCode = 0;

/** The status of a guest's request for `target` on the process at `port`. */
function statusAt(port: number, target: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: target, headers: { host: HOST } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Asks the process until its listing is made afresh and the recipe answers 200: how long. */
async function reached(port: number, recipePath: string, since: number): Promise<number> {
  let listingFresh = false;
  let recipeLive = false;
  while (!(listingFresh && recipeLive)) {
    if (performance.now() - since > GIVE_UP_MS) throw new Error(`port ${port}: not reached`);
    if (!listingFresh) listingFresh = (await pageCacheState(port, HOST, LISTING)) !== 'hit';
    if (!recipeLive) recipeLive = (await statusAt(port, recipePath)) === 200;
  }
  return performance.now() - since;
}

try {
  const shared: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SESSION_SECRET: 'bench-secret-that-is-long-enough-0123456789',
    PAGE_CACHE_MB: '64',
    DATABASE_URL: database.url,
  };
  const seedDir = mkdtempSync(path.join(os.tmpdir(), 'kattaus-bench-seed-'));
  folders.push(seedDir);
  const seedStarted = performance.now();
  execFileSync(process.execPath, ['--import', 'tsx', 'seed/cli.ts', '--images-per-kind', '1'], {
    cwd: ROOT,
    env: { ...shared, DATA_DIR: seedDir },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  process.stderr.write(`bench/publish-reach: seeded in ${seedSeconds.toFixed(1)} s\n`);
  const link = makeEditor({ ...shared, DATA_DIR: seedDir }, 'julkaisija@kattaus.example');

  const ports: number[] = [];
  for (let i = 0; i < PROCESSES; i++) {
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `kattaus-bench-reach-${i}-`));
    folders.push(dataDir);
    const server = spawn(process.execPath, [SERVER_ENTRY], {
      cwd: ROOT,
      env: { ...shared, DATA_DIR: dataDir, PORT: String(port) },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    servers.push(server);
    await waitForHealth(`http://127.0.0.1:${port}`, server);
    ports.push(port);
  }
  const [first] = ports;
  if (first === undefined) throw new Error('no server');
  const editor = await enrolEditor(first, link);
  const model = (await openRecipe(editor, await someRecipe(editor))).head.document;

  const perProcess: number[][] = ports.map(() => []);
  const publishMs: number[] = [];
  let draftsLeftCached = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    const slug = `julkaisu-${process.pid}-${round}`;
    const recipePath = `${LISTING}/${slug}`;
    const document = { ...model, path: recipePath, title: `Julkaisukierros ${round}` };
    const made = await editor.call('POST', `${RECIPES_ADMIN_API}?site=jyvabroiler&lang=fi`, {
      document,
    });
    if (made.status !== 200) throw new Error(`create: ${JSON.stringify(made.json)}`);
    const { item, head } = made.json as RecipeOpen;
    // Every process has the listing cached and no recipe at the address.
    for (const port of ports) {
      await pageCacheState(port, HOST, LISTING);
      if ((await pageCacheState(port, HOST, LISTING)) !== 'hit')
        throw new Error(`port ${port}: the listing is not cached`);
      if ((await statusAt(port, recipePath)) !== 404)
        throw new Error(`port ${port}: ${recipePath} answers before its publish`);
    }
    // A draft (of the unpublished recipe) leaves every process's listing cached.
    const draft = await editor.call('PUT', `${RECIPES_ADMIN_API}/${item.id}`, {
      basedOn: head.version,
      document: { ...document, teaser: 'Luonnos ennen julkaisua' },
    });
    if (draft.status !== 200) throw new Error(`draft: ${JSON.stringify(draft.json)}`);
    const cached = await Promise.all(ports.map((port) => pageCacheState(port, HOST, LISTING)));
    if (cached.every((state) => state === 'hit')) draftsLeftCached += 1;

    const sent = performance.now();
    const published = await editor.call('POST', `${RECIPES_ADMIN_API}/${item.id}/publish`, {
      version: (draft.json as RecipeOpen).head.version,
    });
    if (published.status !== 200) throw new Error(`publish: ${JSON.stringify(published.json)}`);
    const answered = performance.now();
    publishMs.push(answered - sent);
    const times = await Promise.all(ports.map((port) => reached(port, recipePath, answered)));
    for (const [i, ms] of times.entries()) perProcess[i]?.push(ms);
    process.stderr.write(
      `bench/publish-reach: round ${round}: publish ${Math.round(answered - sent)} ms, reached in ${times.map((t) => `${t.toFixed(1)} ms`).join(', ')}\n`,
    );
  }

  const rows = perProcess.map((times, i) => ({
    process: i + 1,
    wrote: i === 0,
    ...figures(times, 1),
  }));
  const worst = Math.max(...perProcess.flat());
  const results = {
    date: new Date().toISOString(),
    commit: gitCommit(),
    machine: machine(),
    settings: { processes: PROCESSES, rounds: ROUNDS, goalMs: GOAL_MS },
    seedSeconds: Math.round(seedSeconds * 10) / 10,
    publishAnswerMs: figures(publishMs, 1),
    draftsLeftEveryListingCached: `${draftsLeftCached}/${ROUNDS}`,
    rows,
    worstMs: Math.round(worst * 10) / 10,
  };
  const out = [
    `${PROCESSES} processes on one PostgreSQL database, ${ROUNDS} publishes through process 1; time from the publish's answer until a process serves its listing afresh and the recipe's address with 200`,
    `${'process'.padEnd(24)}${'p50 ms'.padStart(8)}${'p95 ms'.padStart(8)}${'max ms'.padStart(8)}`,
    ...rows.map(
      (r) =>
        `${`${r.process}${r.wrote ? ' (the one written to)' : ''}`.padEnd(24)}${r.p50.toFixed(1).padStart(8)}${r.p95.toFixed(1).padStart(8)}${r.max.toFixed(1).padStart(8)}`,
    ),
    `the publish request itself: p50 ${results.publishAnswerMs.p50} ms, p95 ${results.publishAnswerMs.p95} ms`,
    `a draft saved before each publish left every process's listing cached in ${results.draftsLeftEveryListingCached} rounds`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
  writeResults('publish-reach', results);
  if (worst >= GOAL_MS || draftsLeftCached !== ROUNDS) {
    console.error(
      `bench/publish-reach: goal (every process within ${GOAL_MS} ms, drafts cached) not met`,
    );
    exitCode = 1;
  }
} catch (error) {
  console.error('bench/publish-reach failed:', error);
  exitCode = 1;
} finally {
  for (const server of servers) await stopProcess(server);
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  await database.drop();
  clearTimeout(watchdog);
}
process.exit(exitCode);
