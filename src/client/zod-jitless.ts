/**
 * zod compiles object parsers with `new Function` when it may; to find out, it tries once, when
 * the first object schema is made. The pages' CSP allows no eval, so that try is reported as a
 * violation (Chromium's issues panel, Lighthouse's `inspector-issues`) on every page whose islands
 * make a schema, although zod catches the error. With `jitless` zod never tries.
 *
 * `z.config({ jitless: true })` would need zod's core in the entry chunk (about 4 kB gzip on every
 * page). zod keeps its configuration in `globalThis.__zod_globalConfig` and takes an object found
 * there when it loads (so that copies of zod share it); the entry seeds that object before any
 * island's code, and so any schema, loads. `zod-jitless.test.ts` checks that zod still reads it.
 */
export const ZOD_CONFIG_KEY = '__zod_globalConfig';

export function makeZodJitless(): void {
  const scope = globalThis as Record<string, unknown>;
  const current = scope[ZOD_CONFIG_KEY];
  if (current && typeof current === 'object') (current as { jitless?: boolean }).jitless = true;
  else scope[ZOD_CONFIG_KEY] = { jitless: true };
}
