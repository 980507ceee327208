import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

/**
 * The production server as a process of its own, as an operator runs it: `node server/main.js`
 * of a build made as `npm run build` makes it, configured by its environment.
 */

/**
 * The build `npm test` has just made (`E2E_BUILD` names it, decision 090), or undefined when the
 * tests run without it and must make a build of their own (`buildInto`).
 */
export function buildMade(): string | undefined {
  const made = process.env.E2E_BUILD;
  if (!made) return undefined;
  for (const part of ['client', 'server']) {
    if (!existsSync(path.join(made, part)))
      throw new Error(`E2E_BUILD=${made} has no ${part}/ folder: run npm run build first`);
  }
  return made;
}

/** The production build, as `npm run build` makes it, into `outDir` (`client/`, `server/`). */
export function buildInto(outDir: string): void {
  // Vitest sets NODE_ENV=test, which a build would inherit: React's development build in the
  // browser bundle. The pages under test are the production build, as `npm run build` makes it.
  const buildEnv = { ...process.env, NODE_ENV: 'production' };
  const run = (args: string[]) =>
    execFileSync(process.execPath, args, { env: buildEnv, stdio: ['ignore', 'ignore', 'inherit'] });
  run([
    'node_modules/vite/bin/vite.js',
    'build',
    '--outDir',
    path.join(outDir, 'client'),
    '--logLevel',
    'warn',
  ]);
  // The back office's own bundle, beside the public one (decision 133).
  run([
    'node_modules/vite/bin/vite.js',
    'build',
    '-c',
    'vite.admin.config.ts',
    '--outDir',
    path.join(outDir, 'client'),
    '--logLevel',
    'warn',
  ]);
  run(['--import', 'tsx', 'scripts/precompress.ts', path.join(outDir, 'client', 'assets')]);
  run([
    'node_modules/vite/bin/vite.js',
    'build',
    '--ssr',
    'src/app/main.ts',
    '--outDir',
    path.join(outDir, 'server'),
    '--logLevel',
    'warn',
  ]);
}

/** A port nothing listens on now, on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/**
 * `npm run staff -- create` for a new staff member, as the README says to make the first
 * administrator: answers the one-time enrolment link the command printed. With the embedded
 * database it runs before the server starts (the database is one process's).
 */
export function createStaffMember(
  env: NodeJS.ProcessEnv,
  person: { email: string; name: string; role: string; sites?: string[]; langs?: string[] },
): string {
  const printed = execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/app/staff-cli.ts',
      'create',
      '--email',
      person.email,
      '--name',
      person.name,
      '--role',
      person.role,
      ...(person.sites ? ['--sites', person.sites.join(',')] : []),
      ...(person.langs ? ['--langs', person.langs.join(',')] : []),
    ],
    { env, encoding: 'utf8' },
  );
  const link = /https?:\/\/\S+\/admin\/enrol#\S+/.exec(printed)?.[0];
  if (!link) throw new Error(`npm run staff printed no link:\n${printed}`);
  return link;
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** What it wrote to stdout and stderr, line by line (with `keepOutput`; else none). */
  lines: string[];
}

/**
 * Starts the server of `build` with `env` (its `PORT` among it) and waits until `/health` answers
 * 200. With `keepOutput` its output is kept in `lines` (its log lines are JSON) instead of
 * passing through to this process's.
 */
export async function startServerProcess(
  build: string,
  env: NodeJS.ProcessEnv,
  { keepOutput = false } = {},
): Promise<ServerProcess> {
  const port = Number(env.PORT);
  const child = spawn(process.execPath, [path.join(build, 'server', 'main.js')], {
    env,
    stdio: ['ignore', keepOutput ? 'pipe' : 'inherit', keepOutput ? 'pipe' : 'inherit'],
  });
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    let partial = '';
    stream?.on('data', (chunk: Buffer) => {
      const parts = (partial + chunk.toString('utf8')).split('\n');
      partial = parts.pop() ?? '';
      lines.push(...parts.filter((line) => line.trim() !== ''));
    });
  }
  try {
    await waitForHealth(port, child);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\n${lines.join('\n')}`);
  }
  return { child, port, lines };
}

async function waitForHealth(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not become healthy in 60 s');
}

/** SIGTERM, as a process manager stops it; SIGKILL if it has not exited 10 s later. */
export function stopServerProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
