/**
 * An editor in the benchmarks (issue 35): a staff member of jyväbroileri made as `npm run staff`
 * makes one (before the server starts: the embedded database has one process at a time),
 * enrolled and signed in over HTTP with a cookie jar, who then drafts and publishes recipes
 * through the back office's API as the /admin screens do.
 */
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { RECIPES_ADMIN_API, type RecipeOpen } from '../src/features/content/publishing/schemas.ts';
import { ADMIN_API } from '../src/features/staff/index.ts';
import { stepAt, totpCode } from '../src/features/staff/totp.server.ts';
import { requestWithJar } from '../tests/helpers/raw-http.ts';
import { ROOT } from './support.ts';

const ADMIN_HOST = 'localhost';
const PASSWORD = 'benchin toimittajan pitkä salasana 9';

/** Makes a publisher of jyväbroileri in Finnish; answers their one-time enrolment link. */
export function makeEditor(env: NodeJS.ProcessEnv, email: string): string {
  const printed = execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/app/staff-cli.ts',
      'create',
      '--email',
      email,
      '--name',
      'Benchin Toimittaja',
      '--role',
      'publisher',
      '--sites',
      'jyvabroiler',
      '--langs',
      'fi',
    ],
    { cwd: ROOT, env, encoding: 'utf8' },
  );
  const link = /https?:\/\/\S+\/admin\/enrol#\S+/.exec(printed)?.[0];
  if (!link) throw new Error(`npm run staff printed no link:\n${printed}`);
  return link;
}

export interface Editor {
  /** A request to the back office's API with the editor's cookies; the answer parsed. */
  call(method: string, target: string, body?: unknown): Promise<{ status: number; json: unknown }>;
}

/** Enrols from the link on the server at `port` (password and authenticator): signed in after. */
export async function enrolEditor(port: number, link: string): Promise<Editor> {
  const jar = new Map<string, string>();
  const call: Editor['call'] = async (method, target, body) => {
    const res = await requestWithJar(port, ADMIN_HOST, jar, method, target, body);
    return { status: res.status, json: res.text ? JSON.parse(res.text) : undefined };
  };
  await call('GET', `${ADMIN_API}/auth/session`);
  const token = link.split('#')[1] ?? '';
  const opened = await call('POST', `${ADMIN_API}/enrolment`, { token });
  if (opened.status !== 200) throw new Error(`enrolment: ${JSON.stringify(opened.json)}`);
  const { secret } = opened.json as { secret: string };
  const done = await call('POST', `${ADMIN_API}/enrolment/complete`, {
    token,
    password: PASSWORD,
    code: totpCode(secret, stepAt(Date.now())),
  });
  if (done.status !== 200) throw new Error(`enrolment complete: ${JSON.stringify(done.json)}`);
  return { call };
}

/** The newest version of a recipe opened in the editor. */
export async function openRecipe(editor: Editor, id: number): Promise<RecipeOpen> {
  const res = await editor.call('GET', `${RECIPES_ADMIN_API}/${id}`);
  if (res.status !== 200) throw new Error(`open recipe ${id}: ${res.status}`);
  return res.json as RecipeOpen;
}

/** The id of the most recently changed recipe the editor may edit. */
export async function someRecipe(editor: Editor): Promise<number> {
  const res = await editor.call('GET', `${RECIPES_ADMIN_API}?site=jyvabroiler&lang=fi`);
  const id = (res.json as { recipes: { id: number }[] }).recipes[0]?.id;
  if (res.status !== 200 || id === undefined) throw new Error('no recipe to edit');
  return id;
}

/**
 * Saves a draft of recipe `id` every `everyMs` (its teaser changed each time, as typing would),
 * each on the newest version; answers how to stop it and what it did.
 */
export async function draftEvery(editor: Editor, id: number, everyMs: number) {
  const opened = await openRecipe(editor, id);
  let head = opened.head.version;
  const document = opened.head.document;
  const outcome = { saved: 0, failed: 0, slowestMs: 0 };
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const save = async () => {
    const started = performance.now();
    const res = await editor.call('PUT', `${RECIPES_ADMIN_API}/${id}`, {
      basedOn: head,
      document: { ...document, teaser: `Luonnos ${outcome.saved + 1} ${new Date().toISOString()}` },
    });
    outcome.slowestMs = Math.max(outcome.slowestMs, performance.now() - started);
    if (res.status === 200) {
      head = (res.json as RecipeOpen).head.version;
      outcome.saved += 1;
    } else {
      outcome.failed += 1;
      head = (await openRecipe(editor, id)).head.version;
    }
  };
  const timer = setInterval(() => {
    if (!stopped) running = running.then(save, save);
  }, everyMs);
  return {
    outcome,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      return outcome;
    },
  };
}

/** The page cache's answer for a page (`x-page-cache`: hit or miss), asked as a guest. */
export function pageCacheState(port: number, host: string, target: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: target, headers: { host, 'accept-encoding': 'br' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(String(res.headers['x-page-cache'] ?? 'none')));
      },
    );
    req.on('error', reject);
    req.end();
  });
}
