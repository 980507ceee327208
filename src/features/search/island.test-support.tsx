import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { expect } from 'vitest';
import type { TestApp } from '../../../tests/helpers/app.ts';
import { serverT } from '../../i18n/catalogues.ts';
import { IslandRoot } from '../../render/island-root.tsx';

/** What a test route of `t` answers on `host`: an island's props as its page would give them. */
export async function islandProps<P>(t: TestApp, host: string, url: string): Promise<P> {
  const response = await t.app.inject({ url, headers: { host } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** An island's HTML as the server renders it in Finnish, before any script. */
export function renderFinnish(island: ReactNode): string {
  return renderToString(
    <IslandRoot lang="fi" t={serverT('fi')}>
      {island}
    </IslandRoot>,
  );
}
