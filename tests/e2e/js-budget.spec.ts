import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import {
  BUDGET_PAGES,
  browserGet,
  describeFiles,
  type Fetch,
  kB,
  largestFiles,
  measurePageJavaScript,
  PAGE_JS_BUDGETS,
  type PageJavaScript,
  type PageType,
  readManifest,
} from '../../scripts/page-javascript.ts';
import { serverPort } from './browser.ts';

/**
 * The JavaScript budget (issue 14, decision 160): home, product, recipe and search pages of the
 * seeded demo content, on several sites, and the shop's home page load at most their page type's
 * budget of JavaScript with every island on the page hydrated (on load, at idle time and when
 * scrolled into view), counted in bytes as the server sends them to a browser (brotli). Measured
 * on the build and server of the e2e project (no browser: HTTP requests and the Vite manifest), by
 * the computation `bench/home.ts` uses too. `JS_BUDGET_SCALE` (e.g. 0.5) scales every budget, to
 * see the check fail.
 */

const port = serverPort();
const manifest = readManifest(path.join(inject('serverBuild'), 'client'));
const scale = Number(process.env.JS_BUDGET_SCALE ?? '1');

const get: Fetch = browserGet(`http://127.0.0.1:${port}`);
/** The pages the budget test measured, for the admin check below. */
const measuredPages: { page: (typeof BUDGET_PAGES)[number]; js: PageJavaScript }[] = [];

describe('JavaScript budget per page type', () => {
  it('has every page type on at least three sites, the shop’s home on the shop', () => {
    for (const type of Object.keys(PAGE_JS_BUDGETS) as PageType[]) {
      const sites = new Set(BUDGET_PAGES.filter((p) => p.type === type).map((p) => p.site));
      if (type === 'shop-home') expect([...sites], type).toEqual(['lihakauppa']);
      else expect(sites.size, type).toBeGreaterThanOrEqual(3);
    }
  });

  it('keeps each page within its budget with every island hydrated', async () => {
    const measured: { page: (typeof BUDGET_PAGES)[number]; js: PageJavaScript }[] = [];
    for (const page of BUDGET_PAGES) {
      const js = await measurePageJavaScript({
        get,
        host: `${page.site}.localhost`,
        path: page.path,
        manifest,
      });
      measured.push({ page, js });
    }
    measuredPages.push(...measured);

    const lines = measured.map(({ page, js }) => {
      const on = (when: string) =>
        js.islandsOnPage
          .filter((i) => i.hydrate === when)
          .map((i) => i.name)
          .join(', ') || 'none';
      return `${page.type.padEnd(9)} ${kB(js.withAllIslands.transferBytes).padStart(6)} kB  ${String(js.withAllIslands.files).padStart(2)} files  (before islands ${kB(js.beforeIslands.transferBytes)}, load ${kB(js.withLoadIslands.transferBytes)}, idle ${kB(js.withIdleIslands.transferBytes)}; gzip -9 ${kB(js.withAllIslands.gzipBytes)})  ${page.site} ${page.path}  (load: ${on('load')}; idle: ${on('idle')}; visible: ${on('visible')})`;
    });
    console.info(
      `JavaScript per page with every island hydrated (bytes as sent to a browser that accepts brotli, 1 kB = 1000 bytes):\n${lines.join('\n')}`,
    );

    // The server sends the precompressed brotli files: what the budget counts is what arrives.
    const notBrotli = measured.flatMap(({ js }) =>
      js.files.filter((f) => f.encoding !== 'br').map((f) => f.url),
    );
    expect(notBrotli).toEqual([]);

    const failures = measured.flatMap(({ page, js }) => {
      const budget = Math.round(PAGE_JS_BUDGETS[page.type] * scale);
      const bytes = js.withAllIslands.transferBytes;
      if (bytes <= budget) return [];
      return [
        `${page.type} page ${page.site} ${page.path}: ${kB(bytes)} kB of JavaScript (brotli, as sent) with every island hydrated, over the ${page.type} budget of ${kB(budget)} kB. Largest files:\n${describeFiles(
          largestFiles(js, 5),
        )
          .map((l) => `    ${l}`)
          .join('\n')}`,
      ];
    });
    if (failures.length > 0) expect.fail(`JavaScript budget exceeded:\n${failures.join('\n')}`);
  });
});

/**
 * The back office's bundle (decision 133) is built apart, with a manifest of its own: none of its
 * files is loaded by a public page, and no public chunk holds its code (its API paths).
 */
describe('no admin code on public pages', () => {
  const clientDir = path.join(inject('serverBuild'), 'client');
  const admin = JSON.parse(
    readFileSync(path.join(clientDir, '.vite/admin-manifest.json'), 'utf8'),
  ) as Record<string, { file: string; css?: string[] }>;
  const adminFiles = new Set(
    Object.values(admin).flatMap((chunk) =>
      [chunk.file, ...(chunk.css ?? [])].map((f) => `/assets/${path.basename(f)}`),
    ),
  );

  it('the admin build has its own files, apart from the public manifest', () => {
    expect(adminFiles.size).toBeGreaterThan(0);
    const publicFiles = new Set(
      Object.values(manifest).map((c) => `/assets/${path.basename(c.file)}`),
    );
    expect([...adminFiles].filter((f) => publicFiles.has(f))).toEqual([]);
  });

  it('loads no admin file on any measured public page, any island hydrated', () => {
    expect(measuredPages.length).toBe(BUDGET_PAGES.length);
    const found = measuredPages.flatMap(({ page, js }) =>
      js.files
        .filter((f) => adminFiles.has(f.url))
        .map((f) => `${page.site} ${page.path}: ${f.url}`),
    );
    expect(found).toEqual([]);
  });

  it('has no admin code in any public chunk', () => {
    const assets = path.join(clientDir, 'assets');
    const publicChunks = readdirSync(assets).filter(
      (f) => f.endsWith('.js') && !adminFiles.has(`/assets/${f}`),
    );
    expect(publicChunks.length).toBeGreaterThan(10);
    const withAdmin = publicChunks.filter((f) =>
      readFileSync(path.join(assets, f), 'utf8').includes('/api/admin/'),
    );
    expect(withAdmin).toEqual([]);
    // The check can see admin code: one of the admin build's own chunks has it.
    const adminWithApi = [...adminFiles].filter(
      (f) =>
        f.endsWith('.js') &&
        readFileSync(path.join(assets, path.basename(f)), 'utf8').includes('/api/admin/'),
    );
    expect(adminWithApi.length).toBeGreaterThan(0);
  });
});
