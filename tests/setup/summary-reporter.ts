import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Printed before Vitest's own summary, which stays the last line of the run:
 * - each project's wall-clock time (unit, parity, e2e), so the phases of `npm test` show;
 * - the ten slowest test files;
 * - every skipped test and what would run it (decision 090: on a laptop without PostgreSQL or
 *   Redis the tests that need them are skipped, and say so).
 *
 * The times are the ones each file recorded when it ran, not the reporter's clock, so the summary
 * also holds for a report Vitest merges from blob reports (`--merge-reports`).
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const lines: string[] = [];
    const root = process.cwd();
    const label = (module: TestModule) =>
      `${module.project.name}: ${path.relative(root, module.moduleId)}`;

    const spans = new Map<string, { start: number; end: number }>();
    const durations = new Map<TestModule, number>();
    for (const module of modules) {
      const { duration, setupDuration, collectDuration } = module.diagnostic();
      const took = duration + setupDuration + collectDuration;
      durations.set(module, took);
      // The project's span runs from its first test's start to its last test's end.
      const project = module.project.name || 'default';
      for (const test of module.children.allTests()) {
        const diagnostic = test.diagnostic();
        if (!diagnostic) continue;
        const span = spans.get(project);
        const end = diagnostic.startTime + diagnostic.duration;
        spans.set(project, {
          start: Math.min(span?.start ?? diagnostic.startTime, diagnostic.startTime),
          end: Math.max(span?.end ?? end, end),
        });
      }
    }

    if (durations.size > 0) {
      const phases = [...spans].map(([name, span]) => `${name} ${seconds(span.end - span.start)}`);
      if (phases.length > 0) lines.push(`Phases (wall clock): ${phases.join(', ')}`);
      const slowest = [...durations].sort((a, b) => b[1] - a[1]).slice(0, 10);
      lines.push('Ten slowest test files:');
      for (const [module, ms] of slowest)
        lines.push(`  ${seconds(ms).padStart(7)}  ${label(module)}`);
    }

    const skipped: string[] = [];
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        if (test.result().state === 'skipped')
          skipped.push(`  ${label(module)} › ${test.fullName}`);
      }
    }
    if (skipped.length > 0) {
      lines.push(`Skipped ${skipped.length} tests:`, ...skipped);
      const missing = missingServices();
      if (missing.length > 0) {
        lines.push(
          `Not set here: ${missing.join(', ')}. The race, multi-process and shared-counter tests need them;`,
          'to run every test: eval "$(bash .ci/start-postgres)" and start redis-server, then',
          '  DATABASE_URL=$DATABASE_URL REDIS_URL=redis://127.0.0.1:6379 npm test',
          '(or `bash .ci/run`, which starts both and runs everything).',
        );
      }
    }
    if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
  }
}

function missingServices(): string[] {
  const missing: string[] = [];
  if (!process.env.DATABASE_URL) missing.push('DATABASE_URL (PostgreSQL)');
  if (!process.env.REDIS_URL) missing.push('REDIS_URL (Redis)');
  return missing;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
