import { execFileSync } from 'node:child_process';
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
    serverPort: number;
    /** The folder of the build under test: `client/` and `server/main.js`. */
    serverBuild: string;
    /** The enrolment link the README's `npm run staff -- create` printed for the first admin. */
    adminEnrolmentLink: string;
  }
}

/**
 * Starts the production build, as `npm start` does, on a free port with a fresh data folder
 * (PGlite), for the browser tests, from a build of its own.
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
  };
  delete env.DATABASE_URL;
  // The demo content, as `npm start` writes it, with fewer distinct pictures: every page and
  // product still gets its images, drawn from a smaller set that takes seconds to generate.
  if (existsSync('seed/cli.ts')) {
    execFileSync(process.execPath, ['--import', 'tsx', 'seed/cli.ts', '--images-per-kind', '3'], {
      env,
      stdio: 'inherit',
    });
  }
  // The first administrator, as the README says to make one: the command prints a one-time
  // enrolment link. It runs before the server starts: the embedded database is one process's.
  const adminEnrolmentLink = createStaffMember(
    { ...env, ADMIN_URL: `http://127.0.0.1:${port}/admin` },
    { email: 'ylla.pitaja@kattaus.example', name: 'Ylla Pitäjä', role: 'admin' },
  );
  const { child } = await startServerProcess(outDir, env);
  project.provide('serverPort', port);
  project.provide('serverBuild', outDir);
  project.provide('adminEnrolmentLink', adminEnrolmentLink);
  return async () => {
    await stopServerProcess(child);
    await rm(dataDir, { recursive: true, force: true });
    await rm(outDir, { recursive: true, force: true });
  };
}
