import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

/**
 * The built server as `npm start` runs it, in a process of its own, and the README's command that
 * makes a staff member: the browser tests' shared server and the ones a spec starts for a setting
 * of its own use these.
 */

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
 * `npm run staff -- create` for a new staff member: answers the one-time enrolment link the
 * command printed. With the embedded database it runs before the server starts (one process's).
 */
export function createStaffMember(
  env: NodeJS.ProcessEnv,
  person: { email: string; name: string; role: string },
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
    ],
    { env, encoding: 'utf8' },
  );
  const link = /https?:\/\/\S+\/admin\/enrol#\S+/.exec(printed)?.[0];
  if (!link) throw new Error(`npm run staff printed no link:\n${printed}`);
  return link;
}

/** Starts `<build>/server/main.js` with `env` (its PORT among them) and waits until it is healthy. */
export async function startServer(build: string, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(build, 'server', 'main.js')], {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitForHealth(Number(env.PORT), child);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return child;
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

/** Stops a server started here: SIGTERM, and SIGKILL if it has not exited in 10 s. */
export function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
