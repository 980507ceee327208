import { describe, expect, it } from 'vitest';
import { ZOD_CONFIG_KEY } from './zod-jitless.ts';

describe('makeZodJitless', () => {
  it('seeds the object zod reads its configuration from', async () => {
    const scope = globalThis as Record<string, unknown>;
    const { config, globalConfig } = await import('zod/v4/core');
    // zod took the object under this name: a change in zod would show here.
    expect(scope[ZOD_CONFIG_KEY]).toBe(globalConfig);
    const { makeZodJitless } = await import('./zod-jitless.ts');
    const jitless = globalConfig.jitless;
    try {
      makeZodJitless();
      expect(globalConfig.jitless).toBe(true);
      expect(config().jitless).toBe(true);
    } finally {
      if (jitless === undefined) delete globalConfig.jitless;
      else globalConfig.jitless = jitless;
    }
  });
});
