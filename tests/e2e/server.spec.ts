import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { freePort } from '../helpers/server-process.ts';
import { serverPort } from './browser.ts';

const base = `http://127.0.0.1:${serverPort()}`;

describe('the production server', () => {
  it('serves built files pre-compressed with immutable cache headers', async () => {
    const html = await (await fetch(`${base}/`)).text();
    const scripts = [...html.matchAll(/<script type="module" src="([^"]+)"/g)].map((m) => m[1]);
    const styles = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    expect(styles.length).toBe(1);
    for (const file of [...scripts, ...styles]) {
      expect(file).toMatch(/^\/assets\/[\w-]+-[\w-]{8}\.(js|css)$/);
      const res = await fetch(`${base}${file}`, { headers: { 'accept-encoding': 'br' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe('br');
      expect(res.headers.get('cache-control')).toContain('immutable');
      expect(res.headers.get('cache-control')).toContain('max-age=31536000');
      expect(res.headers.get('set-cookie')).toBeNull();
    }
  });

  it('compresses pages for clients that accept it', async () => {
    const res = await fetch(`${base}/`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(await res.text()).toContain('<!DOCTYPE html>');
  });

  it('answers an unknown file under /assets/ with 404', async () => {
    expect((await fetch(`${base}/assets/nothing-12345678.js`)).status).toBe(404);
  });
});

describe('SIGTERM', () => {
  it('stops the server cleanly, leaving an embedded database that opens again', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'kattaus-sigterm-'));
    try {
      for (let round = 0; round < 2; round++) {
        // A port the system hands out as free: a random one could be another server's.
        const port = await freePort();
        const env: NodeJS.ProcessEnv = {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          LOG_LEVEL: 'info',
        };
        delete env.DATABASE_URL;
        const child = spawn(
          process.execPath,
          [path.join(inject('serverBuild'), 'server', 'main.js')],
          {
            env,
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        let output = '';
        child.stdout.on('data', (d) => {
          output += String(d);
        });
        child.stderr.on('data', (d) => {
          output += String(d);
        });
        const exited = new Promise<number | null>((resolve) =>
          child.once('exit', (code) => resolve(code)),
        );
        const deadline = Date.now() + 60_000;
        let healthy = false;
        while (!healthy && Date.now() < deadline && child.exitCode === null) {
          healthy = await fetch(`http://127.0.0.1:${port}/health`).then(
            (r) => r.ok,
            () => false,
          );
          if (!healthy) await new Promise((r) => setTimeout(r, 200));
        }
        expect(healthy, output).toBe(true);
        child.kill('SIGTERM');
        const code = await Promise.race([
          exited,
          new Promise((r) => setTimeout(() => r('timeout'), 15_000)),
        ]);
        if (code === 'timeout') child.kill('SIGKILL');
        expect(code).toBe(0);
        expect(output).toContain('shutting down');
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
