import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  buildInto,
  buildMade,
  createStaffMember,
  freePort,
  startServerProcess,
  stopServerProcess,
} from '../helpers/server-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One seeded server per browser worker (see `E2E_SERVERS`), by worker. */
    serverPorts: number[];
    /** The folder of the build under test: `client/` and `server/main.js`. */
    serverBuild: string;
    /**
     * The enrolment links the README's `npm run staff -- create` printed for each server's first
     * admin, by worker.
     */
    adminEnrolmentLinks: string[];
  }
}

/**
 * How many seeded servers to start: one for each browser test file that may run at once. The e2e
 * project runs one file at a time (decision 149), so one by default; with `E2E_SERVERS=2` and
 * `--file-parallelism` on a machine with more cores, each worker uses its own server, so a file
 * still has a server to itself while it runs.
 */
export function serverCount(): number {
  const count = Number(process.env.E2E_SERVERS ?? 1);
  return Number.isInteger(count) && count >= 1 ? count : 1;
}

/**
 * Starts the production build, as `npm start` does, on free ports with fresh data folders
 * (PGlite), for the browser tests, from a build of its own: one server per browser worker.
 */
export default async function setup(project: TestProject) {
  // A build of its own, so a rebuild of dist/ by someone else cannot pull assets from under it:
  // a copy of the build `npm test` has just made (E2E_BUILD names it), or else a new build.
  const outDir = path.resolve('.e2e-build', `${process.pid}-${Date.now()}`);
  const madeBuild = buildMade();
  if (madeBuild) {
    for (const part of ['client', 'server']) {
      await cp(path.join(madeBuild, part), path.join(outDir, part), { recursive: true });
    }
  } else {
    buildInto(outDir);
  }
  const servers = await Promise.all(
    Array.from({ length: serverCount() }, () => startSeededServer(outDir)),
  );
  project.provide(
    'serverPorts',
    servers.map((server) => server.port),
  );
  project.provide('serverBuild', outDir);
  project.provide(
    'adminEnrolmentLinks',
    servers.map((server) => server.adminEnrolmentLink),
  );
  return async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await rm(outDir, { recursive: true, force: true });
  };
}

/** Seeds a fresh data folder, makes its first admin and starts the build on a free port. */
async function startSeededServer(outDir: string) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'kattaus-e2e-'));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // The forms test reads back what the server stored (development-only JSON listing).
    DEV_SUBMISSIONS_API: 'true',
    // The shop's tests confirm a new account from its mailed link (decision 075); the link also
    // verifies the address, which reviews need (decisions 082 and 083).
    DEV_OUTBOX_PAGE: 'true',
    // One browser from one address loads every site's pages and searches in a few minutes.
    SEARCH_RATE_LIMIT: '100000',
    // The school vote counts once per client address a day (decision 076): its tests name
    // addresses of their own with X-Forwarded-For, believed from this machine only.
    TRUST_PROXY: 'loopback',
    IMAGE_MISS_RATE_LIMIT: '100000',
    // A real captcha, solved by the browser, at the unit tests' difficulty: at the default every
    // form page costs its browser about half a second of hashing.
    ALTCHA_MAX_NUMBER: '2000',
  };
  delete env.DATABASE_URL;
  // The demo content, as `npm start` writes it, with fewer distinct pictures: every page and
  // product still gets its images, drawn from a smaller set that takes seconds to generate.
  if (existsSync('seed/cli.ts')) {
    await run(process.execPath, ['--import', 'tsx', 'seed/cli.ts', '--images-per-kind', '3'], env);
  }
  // The first administrator, as the README says to make one: the command prints a one-time
  // enrolment link. It runs before the server starts: the embedded database is one process's.
  const adminEnrolmentLink = createStaffMember(
    { ...env, ADMIN_URL: `http://127.0.0.1:${port}/admin` },
    { email: 'ylla.pitaja@kattaus.example', name: 'Ylla Pitäjä', role: 'admin' },
  );
  const { child } = await startServerProcess(outDir, env);
  return {
    port,
    adminEnrolmentLink,
    stop: async () => {
      await stopServerProcess(child);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs a command to its end, its output passed through; rejects if it fails. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      process.stdout.write(stdout);
      process.stderr.write(stderr);
      if (error) reject(error);
      else resolve();
    });
  });
}
