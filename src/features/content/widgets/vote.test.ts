import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPage } from '../../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { arrive, fromAddress } from '../../../../tests/helpers/visitor.ts';
import { schoolVotes } from '../tables.ts';
import { voteClientKey } from './vote.server.ts';
import { SCHOOL_VOTE_FORM_PATH, SCHOOL_VOTE_PATH } from './vote-values.ts';

/**
 * The school vote (`POST /api/school/vote`): one vote per visitor, also when the visitor sends
 * many at once. The parallel case runs on a real PostgreSQL server (DATABASE_URL), where the
 * inserts race on several connections; PGlite has one connection and would serialise them.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
const HOST = 'konsernifi.localhost';
const VOTE = 'school-test-protein';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await createPage(t.app.db, { siteId: 'konsernifi', path: '/', type: 'home', title: 'Etusivu' });
  await createPage(t.app.db, {
    siteId: 'konsernifi',
    path: '/koulu',
    title: 'Koulumateriaali',
    blocks: [
      {
        type: 'school-vote',
        voteId: VOTE,
        question: 'Mikä proteiini?',
        options: [
          { Title: 'Liha', Text: 'Lihasta.' },
          { Title: 'Kasvit', Text: 'Kasveista.' },
          { Title: 'Kala', Text: 'Kalasta.' },
        ],
      },
    ],
  });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

async function storedVotes() {
  return t.app.db
    .select()
    .from(schoolVotes)
    .where(and(eq(schoolVotes.siteId, 'konsernifi'), eq(schoolVotes.voteId, VOTE)));
}

async function clearVotes() {
  await t.app.db.delete(schoolVotes).where(eq(schoolVotes.voteId, VOTE));
}

const post = (visitor: Awaited<ReturnType<typeof arrive>>, payload: unknown) =>
  visitor.post(SCHOOL_VOTE_PATH, { payload: payload as object });

describe('school vote', () => {
  it('counts a visitor once; a second vote answers the first choice', async () => {
    await clearVotes();
    const visitor = await arrive(t.app, '/', { host: HOST });
    const first = await post(visitor, { voteId: VOTE, option: 1 });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ option: 1, counted: true, totals: [0, 1, 0] });
    const again = await post(visitor, { voteId: VOTE, option: 2 });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ option: 1, counted: false, totals: [0, 1, 0] });
    // Another visitor, from another address (one vote a day per address, decision 076).
    const other = fromAddress(await arrive(t.app, '/', { host: HOST }), '10.0.3.1');
    expect((await post(other, { voteId: VOTE, option: 2 })).json()).toEqual({
      option: 2,
      counted: true,
      totals: [0, 1, 1],
    });
    expect(await storedVotes()).toHaveLength(2);
  });

  it.each([
    ['a missing option', { voteId: VOTE }, 'option'],
    ['an option that is not a number', { voteId: VOTE, option: 'x' }, 'option'],
    ['a fractional option', { voteId: VOTE, option: 1.5 }, 'option'],
    ['a negative option', { voteId: VOTE, option: -1 }, 'option'],
    ['an option beyond any vote', { voteId: VOTE, option: 9 }, 'option'],
    ['an option beyond this vote (3 options)', { voteId: VOTE, option: 3 }, 'option'],
    ['a malformed vote id', { voteId: 'Ääni!', option: 0 }, 'voteId'],
    ['a missing vote id', { option: 0 }, 'voteId'],
  ])(
    'refuses %s with 400 problem+json naming the field, storing nothing',
    async (_, body, field) => {
      await clearVotes();
      const visitor = await arrive(t.app, '/', { host: HOST });
      const answer = await post(visitor, body);
      expect(answer.statusCode).toBe(400);
      expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(Object.keys(answer.json().errors ?? {})).toContain(field);
      expect(await storedVotes()).toHaveLength(0);
    },
  );

  it('refuses an unknown field, a body that is not JSON and an unknown vote', async () => {
    await clearVotes();
    const visitor = await arrive(t.app, '/', { host: HOST });
    const extra = await post(visitor, { voteId: VOTE, option: 0, weight: 100 });
    expect(extra.statusCode).toBe(400);
    expect(extra.headers['content-type']).toMatch(/^application\/problem\+json/);
    const text = await visitor.post(SCHOOL_VOTE_PATH, {
      payload: 'option=1',
      headers: { 'content-type': 'application/json' },
    });
    expect(text.statusCode).toBe(400);
    expect(text.headers['content-type']).toMatch(/^application\/problem\+json/);
    const unknown = await post(visitor, { voteId: 'no-such-vote', option: 0 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^application\/problem\+json/);
    // The vote belongs to one site: another site has no such vote.
    const elsewhere = await arrive(t.app, '/', { host: 'koncernse.localhost' });
    expect((await post(elsewhere, { voteId: VOTE, option: 0 })).statusCode).toBe(404);
    expect(await storedVotes()).toHaveLength(0);
  });

  it('refuses a vote without the anti-forgery token (403), storing nothing', async () => {
    await clearVotes();
    const visitor = await arrive(t.app, '/', { host: HOST });
    const answer = await visitor.post(SCHOOL_VOTE_PATH, {
      payload: { voteId: VOTE, option: 0 },
      xsrf: false,
    });
    expect(answer.statusCode).toBe(403);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(await storedVotes()).toHaveLength(0);
  });
});

/** The vote as a plain form, as a browser without script sends it (no anti-forgery header). */
const formVote = (
  visitor: Awaited<ReturnType<typeof arrive>>,
  fields: Record<string, string>,
  headers: Record<string, string> = { 'sec-fetch-site': 'same-origin' },
) =>
  visitor.post(SCHOOL_VOTE_FORM_PATH, {
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    xsrf: false,
  });

describe('school vote without script (plain form post)', () => {
  it('counts once per session and goes back to the page with the counted choice', async () => {
    await clearVotes();
    const visitor = await arrive(t.app, '/koulu', { host: HOST });
    const first = await formVote(visitor, { voteId: VOTE, option: '1', return: '/koulu' });
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe(`/koulu?aanestys=${VOTE}&valinta=1#aanestys-${VOTE}`);
    // The page it goes back to shows the chosen option's text, not the options.
    const page = await visitor.get(String(first.headers.location).split('#')[0] ?? '');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Kasveista.');
    expect(page.body).toContain('data-vote-result');
    // A second vote of the same session is not counted: the answer names the first choice.
    const again = await formVote(visitor, { voteId: VOTE, option: '2', return: '/koulu' });
    expect(again.headers.location).toBe(`/koulu?aanestys=${VOTE}&valinta=1#aanestys-${VOTE}`);
    // So is one through the API.
    expect((await post(visitor, { voteId: VOTE, option: 0 })).json()).toMatchObject({
      option: 1,
      counted: false,
    });
    expect(await storedVotes()).toHaveLength(1);
  });

  it.each([
    ['an option beyond this vote', { voteId: VOTE, option: '3', return: '/koulu' }],
    ['an option that is not a digit', { voteId: VOTE, option: 'x', return: '/koulu' }],
    ['an unknown vote', { voteId: 'no-such-vote', option: '0', return: '/koulu' }],
  ])('goes back with the failure for %s, storing nothing', async (_, fields) => {
    await clearVotes();
    const visitor = await arrive(t.app, '/koulu', { host: HOST });
    const answer = await formVote(visitor, fields);
    expect(answer.statusCode).toBe(303);
    const location = String(answer.headers.location);
    if (/^[a-z0-9-]+$/.test(fields.voteId) && /^\d$/.test(fields.option)) {
      expect(location).toBe(
        `/koulu?aanestys=${fields.voteId}&aanestysvirhe=1#aanestys-${fields.voteId}`,
      );
    } else {
      expect(location).toBe('/koulu');
    }
    expect(await storedVotes()).toHaveLength(0);
  });

  it('shows the failure on the page with the options kept', async () => {
    const visitor = await arrive(t.app, '/koulu', { host: HOST });
    const page = await visitor.get(`/koulu?aanestys=${VOTE}&aanestysvirhe=1`);
    expect(page.body).toContain('role="alert"');
    expect(page.body).toContain('Jokin meni vikaan');
    // As every failed submit of the site: the title says so.
    expect(page.body).toMatch(/<title>Virhe: [^<]+<\/title>/);
    expect(page.body).toMatch(/<button(?=[^>]*type="submit")(?=[^>]*name="option")[^>]*value="0"/);
  });

  it('refuses a post from another site and keeps the return path on this site', async () => {
    await clearVotes();
    const visitor = await arrive(t.app, '/koulu', { host: HOST });
    const forged = await formVote(
      visitor,
      { voteId: VOTE, option: '0', return: '/koulu' },
      { 'sec-fetch-site': 'cross-site' },
    );
    expect(forged.headers.location).toBe(
      `/koulu?aanestys=${VOTE}&aanestysvirhe=1#aanestys-${VOTE}`,
    );
    const foreignOrigin = await formVote(
      visitor,
      { voteId: VOTE, option: '0', return: '/koulu' },
      { origin: 'https://evil.example' },
    );
    expect(String(foreignOrigin.headers.location)).toContain('aanestysvirhe=1');
    expect(await storedVotes()).toHaveLength(0);
    const away = await formVote(visitor, { voteId: VOTE, option: '0', return: '//evil.example/' });
    expect(away.headers.location).toBe(`/?aanestys=${VOTE}&valinta=0#aanestys-${VOTE}`);
    expect(await storedVotes()).toHaveLength(1);
  });
});

describe('school vote form: the return path and anti-forgery', () => {
  it.each([
    '/\t/evil.example/',
    '/\r\n/evil.example/',
    '/.//evil.example/',
    '/%2e%2e//evil.example/',
    '/koulu\\..\\/evil.example',
  ])('goes back to this site for the return path %j', async (back) => {
    await clearVotes();
    const visitor = fromAddress(await arrive(t.app, '/koulu', { host: HOST }), '10.0.2.1');
    const answer = await formVote(visitor, { voteId: VOTE, option: '0', return: back });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe(`/?aanestys=${VOTE}&valinta=0#aanestys-${VOTE}`);
  });

  it('refuses a form with a wrong anti-forgery field, counts one with the right one', async () => {
    await clearVotes();
    const visitor = fromAddress(await arrive(t.app, '/koulu', { host: HOST }), '10.0.2.2');
    const wrong = await formVote(visitor, {
      _xsrf: 'x'.repeat(43),
      voteId: VOTE,
      option: '0',
      return: '/koulu',
    });
    expect(wrong.headers.location).toBe(`/koulu?aanestys=${VOTE}&aanestysvirhe=1#aanestys-${VOTE}`);
    expect(await storedVotes()).toHaveLength(0);
    const right = await formVote(visitor, {
      _xsrf: visitor.xsrfToken ?? '',
      voteId: VOTE,
      option: '0',
      return: '/koulu',
    });
    expect(right.headers.location).toBe(`/koulu?aanestys=${VOTE}&valinta=0#aanestys-${VOTE}`);
    expect(await storedVotes()).toHaveLength(1);
  });
});

describe('one vote per address and day (decision 076)', () => {
  /** A client that keeps no cookies: every post is a new session. */
  const cookieless = (ip: string, option: string) =>
    t.app.inject({
      method: 'POST',
      url: SCHOOL_VOTE_FORM_PATH,
      remoteAddress: ip,
      headers: { host: HOST, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ voteId: VOTE, option, return: '/koulu' }).toString(),
    });

  it('counts a cookie-less client once however often it posts', async () => {
    await clearVotes();
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await cookieless('10.0.4.1', String(i % 3)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(5).fill(303));
    expect(await storedVotes()).toHaveLength(1);
    // Each answer still goes back to the page with the choice the client made.
    expect(answers[1]?.headers.location).toBe(`/koulu?aanestys=${VOTE}&valinta=1#aanestys-${VOTE}`);
    // Another address counts.
    await cookieless('10.0.4.2', '2');
    expect(await storedVotes()).toHaveLength(2);
  });

  it('counts new sessions from one address once, through the API too', async () => {
    await clearVotes();
    const counted = [];
    for (let i = 0; i < 3; i++) {
      const v = fromAddress(await arrive(t.app, '/', { host: HOST }), '10.0.4.3');
      counted.push((await post(v, { voteId: VOTE, option: 0 })).json().counted);
    }
    expect(counted).toEqual([true, false, false]);
    expect(await storedVotes()).toHaveLength(1);
  });

  it('keeps no address: only a keyed hash that changes with the day and covers an IPv6 /64', async () => {
    await clearVotes();
    await cookieless('10.0.4.4', '0');
    const [row] = await storedVotes();
    expect(row?.clientKey).toMatch(/^[\w-]{43}$/);
    expect(JSON.stringify(row)).not.toContain('10.0.4.4');
    const day = new Date('2026-11-27T12:00:00Z');
    const next = new Date('2026-11-28T12:00:00Z');
    const key = (ip: string, at: Date) => voteClientKey('secret', ip, at);
    expect(key('10.0.4.4', day)).not.toBe(key('10.0.4.4', next));
    expect(key('10.0.4.4', day)).not.toBe(key('10.0.4.5', day));
    expect(key('10.0.4.4', day)).not.toBe(voteClientKey('other secret', '10.0.4.4', day));
    expect(key('2001:db8:1:2::1', day)).toBe(key('2001:db8:1:2:ffff::9', day));
    expect(key('2001:db8:1:2::1', day)).not.toBe(key('2001:db8:1:3::1', day));
    expect(key('::ffff:10.0.4.4', day)).toBe(key('10.0.4.4', day));
    // The day is Helsinki's: 23.30 UTC on the 27th is already the 28th there.
    expect(key('10.0.4.4', new Date('2026-11-27T23:30:00Z'))).toBe(key('10.0.4.4', next));
  });
});

describe('school vote on PostgreSQL', () => {
  it.runIf(onPostgres)('20 parallel votes of one visitor count once', async () => {
    await clearVotes();
    // An address of its own: the earlier tests' votes count against the per-address limit.
    const visitor = fromAddress(await arrive(t.app, '/', { host: HOST }), '10.0.0.1');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(visitor, { voteId: VOTE, option: i % 3 })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    const bodies = answers.map((a) => a.json() as { option: number; counted: boolean });
    expect(bodies.filter((b) => b.counted)).toHaveLength(1);
    const winner = bodies.find((b) => b.counted)?.option;
    // Every answer names the one vote that counted.
    expect(new Set(bodies.map((b) => b.option))).toEqual(new Set([winner]));
    const rows = await storedVotes();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.option).toBe(winner);
  });

  it.runIf(onPostgres)('20 visitors voting at once are 20 votes', async () => {
    await clearVotes();
    const visitors = await Promise.all(
      Array.from({ length: 20 }, async (_, i) =>
        fromAddress(await arrive(t.app, '/', { host: HOST }), `10.0.1.${i + 1}`),
      ),
    );
    const answers = await Promise.all(
      visitors.map((v, i) => post(v, { voteId: VOTE, option: i % 3 })),
    );
    expect(answers.every((a) => a.statusCode === 200 && a.json().counted === true)).toBe(true);
    const rows = await storedVotes();
    expect(rows).toHaveLength(20);
    const last = answers.map((a) => a.json().totals as number[]);
    expect(Math.max(...last.map((totals) => totals.reduce((s, n) => s + n, 0)))).toBe(20);
  });
});
