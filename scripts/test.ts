import { spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * `npm test`: typecheck, lint, one build, then every Vitest project in one run (unit and
 * integration, the engine-parity suite beside PostgreSQL, the browser tests on that build). Each
 * phase's seconds are printed as it ends; Vitest's own summary closes the output.
 */
const steps: { name: string; command: string; args: string[]; env?: NodeJS.ProcessEnv }[] = [
  { name: 'typecheck', command: 'npx', args: ['tsc', '-p', '.'] },
  { name: 'lint', command: 'npx', args: ['biome', 'check', '.'] },
  { name: 'build', command: 'npm', args: ['run', '--silent', 'build'] },
  {
    name: 'tests',
    command: 'npx',
    args: ['vitest', 'run', ...process.argv.slice(2)],
    // The browser tests serve a copy of the build just made, and the outage test
    // (src/app/database-outage.test.ts) starts it twice, instead of building again.
    env: { E2E_BUILD: path.resolve('dist') },
  },
];

for (const step of steps) {
  const started = performance.now();
  process.stdout.write(`\n== ${step.name}\n`);
  const result = spawnSync(step.command, step.args, {
    stdio: 'inherit',
    env: { ...process.env, ...step.env },
  });
  const took = ((performance.now() - started) / 1000).toFixed(1);
  if (step.name !== 'tests') process.stdout.write(`== ${step.name}: ${took} s\n`);
  if (result.status !== 0) {
    process.stderr.write(`== ${step.name} failed after ${took} s\n`);
    process.exit(result.status ?? 1);
  }
}
