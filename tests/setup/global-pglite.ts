import type { TestProject } from 'vitest/node';
import { provideTemplate } from './global-database.ts';

/** The engine-parity project's template: always PGlite, beside a run on PostgreSQL. */
export default function setup(project: TestProject) {
  return provideTemplate(project, undefined);
}
