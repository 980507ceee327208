import { spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * `npm test`: typecheck beside lint and one build (two cores, each side on one), then the tests:
 * the browser tests on that build, and beside them, at the lowest CPU priority, the unit and
 * integration tests with the engine-parity suite (decision 157): the browser tests leave about a
 * fifth of the two cores idle, and the unit tests fill it without slowing them. Each run keeps a
 * Vitest blob report, and Vitest merges the two, so its own summary of every test closes the
 * output. With arguments (`npm test -- --project unit`, a file), Vitest runs once with them.
 * Each step's seconds are printed as it ends; the output of a step run in the background is
 * printed whole when it ends.
 */
interface Step {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** Runs at the lowest CPU priority, taking only what the other steps leave. */
  idle?: boolean;
}

const typecheck: Step = { name: 'typecheck', command: 'npx', args: ['tsc', '-p', '.'] };
const lint: Step = { name: 'lint', command: 'npx', args: ['biome', 'check', '.'] };
const build: Step = { name: 'build', command: 'npm', args: ['run', '--silent', 'build'] };
// The browser tests, and the outage test (src/app/database-outage.test.ts) that starts the build
// twice, serve a copy of the build just made instead of building again.
const testEnv = { E2E_BUILD: path.resolve('dist') };
const reports = path.resolve('.vitest-reports');
const vitest = (name: string, args: string[], idle = false): Step => ({
  name,
  command: idle ? 'nice' : 'npx',
  args: [...(idle ? ['-n', '19', 'npx'] : []), 'vitest', ...args],
  env: testEnv,
  idle,
});
const given = process.argv.slice(2);
// Lowest priority: the browser tests, whose waits have time limits, always come first.
const unit = vitest(
  'unit and parity',
  [
    'run',
    '--project=!e2e',
    '--reporter=dot',
    '--reporter=blob',
    `--outputFile.blob=${reports}/unit.json`,
  ],
  true,
);
const browser = vitest('browser tests', [
  'run',
  '--project=e2e',
  '--reporter=default',
  '--reporter=blob',
  `--outputFile.blob=${reports}/e2e.json`,
]);
const merged = vitest('every test', [
  `--merge-reports=${reports}`,
  '--reporter=./tests/setup/summary-reporter.ts',
  '--reporter=dot',
]);

interface Outcome {
  name: string;
  status: number;
  seconds: string;
}

/**
 * Puts a process started in a session of its own at the lowest priority against the other
 * sessions. Linux schedules each session as a group (autogroup) and shares the CPU fairly between
 * the groups whatever the nice values inside them: Chromium runs in a session of its own, so a
 * `nice -n 19` alone leaves the background step half of the CPU against the browser. Where the
 * kernel has no autogroups (the file is missing) the nice value alone is what counts.
 */
function lowestGroupPriority(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    writeFileSync(`/proc/${pid}/autogroup`, '19');
  } catch {
    // No autogroups here.
  }
}

/** Runs a step with its output kept, and prints the output and the seconds when it ends. */
function quietly(step: Step): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(step.command, step.args, {
      env: { ...process.env, ...step.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      // A session of its own (see lowestGroupPriority), stopped with this process.
      detached: step.idle,
    });
    if (step.idle) {
      lowestGroupPriority(child.pid);
      const stop = () => {
        if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
      };
      process.on('exit', stop);
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        process.once(signal, () => {
          stop();
          process.exit(130);
        });
      }
    }
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n== ${step.name}\n`);
      process.stdout.write(Buffer.concat(output));
      process.stdout.write(`== ${step.name}: ${seconds} s\n`);
      resolve({ name: step.name, status: code ?? 1, seconds });
    });
  });
}

/** Runs a step with the terminal as its output (Vitest's live progress). */
function loudly(step: Step): Promise<Outcome> {
  const started = performance.now();
  process.stdout.write(`\n== ${step.name}\n`);
  return new Promise((resolve) => {
    const child = spawn(step.command, step.args, {
      env: { ...process.env, ...step.env },
      stdio: 'inherit',
    });
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      resolve({ name: step.name, status: code ?? 1, seconds });
    });
  });
}

function stopOnFailure(outcomes: Outcome[]): void {
  const failed = outcomes.find((outcome) => outcome.status !== 0);
  if (!failed) return;
  process.stderr.write(`== ${failed.name} failed after ${failed.seconds} s\n`);
  process.exit(failed.status);
}

const checks = await Promise.all([
  quietly(typecheck),
  (async () => {
    const linted = await quietly(lint);
    return linted.status === 0 ? [linted, await quietly(build)] : [linted];
  })(),
]);
stopOnFailure(checks.flat());
if (given.length > 0) {
  stopOnFailure([await loudly(vitest('tests', ['run', ...given]))]);
} else {
  rmSync(reports, { recursive: true, force: true });
  const runs = await Promise.all([quietly(unit), loudly(browser)]);
  for (const run of runs) process.stdout.write(`== ${run.name}: ${run.seconds} s\n`);
  const summary = await loudly(merged);
  stopOnFailure([summary, ...runs]);
  // A run that ended without its report would be missing from the merged summary.
  const written = existsSync(reports) ? readdirSync(reports) : [];
  const lost = ['unit.json', 'e2e.json'].filter((report) => !written.includes(report));
  if (lost.length > 0) {
    process.stderr.write(`== missing test reports: ${lost.join(', ')}\n`);
    process.exit(1);
  }
}
