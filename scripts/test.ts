import { spawn } from 'node:child_process';
import path from 'node:path';

/**
 * `npm test`: typecheck beside lint and one build (two cores, each side on one), then every Vitest
 * project in one run (unit and integration, the engine-parity suite beside PostgreSQL, the browser
 * tests on that build). Each step's seconds are printed as it ends; the output of the two checks
 * running side by side is printed whole, one after the other; Vitest's own summary closes the
 * output.
 */
interface Step {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
}

const typecheck: Step = { name: 'typecheck', command: 'npx', args: ['tsc', '-p', '.'] };
const lint: Step = { name: 'lint', command: 'npx', args: ['biome', 'check', '.'] };
const build: Step = { name: 'build', command: 'npm', args: ['run', '--silent', 'build'] };
const tests: Step = {
  name: 'tests',
  command: 'npx',
  args: ['vitest', 'run', ...process.argv.slice(2)],
  // The browser tests serve a copy of the build just made, and the outage test
  // (src/app/database-outage.test.ts) starts it twice, instead of building again.
  env: { E2E_BUILD: path.resolve('dist') },
};

interface Outcome {
  name: string;
  status: number;
  seconds: string;
}

/** Runs a step with its output kept, and prints the output and the seconds when it ends. */
function quietly(step: Step): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(step.command, step.args, {
      env: { ...process.env, ...step.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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
stopOnFailure([await loudly(tests)]);
