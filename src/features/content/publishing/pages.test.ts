import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImage, createPage } from '../../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { auditOf, type Enrolled, enrolledStaff, json } from '../../../../tests/helpers/staff.ts';
import type { Visitor } from '../../../../tests/helpers/visitor.ts';
import { pages } from '../tables.ts';
import { PAGES_ADMIN_API, type PageDocument, type PageOpen, type PageTree } from './schemas.ts';

/**
 * Drafts, versions and publishing of pages (decision 166) through the HTTP API, on the routes
 * every kind shares (decision 162): a seeded page opens as its live row; its blocks are checked
 * with the renderer's own schemas; a draft leaves the site and the page cache alone; publishing
 * shows the new blocks in their new order; a stale save is 409; a published path that moves
 * answers 301 to the new one (decision 165); rights per site, language and permission; the tree.
 */
const HOST = { host: 'jyvabroiler.localhost' };
let t: TestApp;
let editor: Enrolled;
let publisher: Enrolled;
let homeId = 0;
let aboutId = 0;
let sibyllaPageId = 0;
let imageId = 0;

const hit = (r: LightMyRequestResponse) => r.headers['x-page-cache'] === 'hit';
const anonymous = (url: string) => t.app.inject({ url, headers: HOST });

async function opened(res: LightMyRequestResponse): Promise<PageOpen> {
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as PageOpen;
}
const open = (v: Visitor, id: number) => v.get(`${PAGES_ADMIN_API}/${id}`);
const save = (v: Visitor, id: number, basedOn: number, document: unknown) =>
  v.request('PUT', `${PAGES_ADMIN_API}/${id}`, json({ basedOn, document }));
const publish = (v: Visitor, id: number, version: number) =>
  v.post(`${PAGES_ADMIN_API}/${id}/publish`, json({ version }));

function page(title: string, path: string, extra: Partial<PageDocument> = {}): PageDocument {
  return {
    path,
    title,
    navLabel: null,
    teaser: '',
    teaserImageId: null,
    seoTitle: null,
    seoDescription: null,
    type: 'content',
    parentId: homeId,
    showInNav: true,
    navArea: 'bottom',
    sortOrder: 0,
    blocks: [{ type: 'rich-text', html: `<p>${title}</p>` }],
    settings: {},
    ...extra,
  };
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.db;
  homeId = (await createPage(db, { siteId: 'jyvabroiler', path: '/', type: 'home', title: 'Koti' }))
    .id;
  aboutId = (
    await createPage(db, {
      siteId: 'jyvabroiler',
      path: '/yritys',
      title: 'Yritys',
      parentId: homeId,
      blocks: [
        { type: 'rich-text', html: '<p>Ensimmäinen lohko</p>' },
        { type: 'rich-text', html: '<p>Toinen lohko</p>' },
      ],
    })
  ).id;
  await createPage(db, { siteId: 'sibylla', path: '/', type: 'home', title: 'Sibylla' });
  sibyllaPageId = (await createPage(db, { siteId: 'sibylla', path: '/yritys', title: 'Sibylla' }))
    .id;
  imageId = (await createImage(db, { alt: { fi: 'Broileritila' } })).id;
  editor = await enrolledStaff(t.app, [{ role: 'editor', sites: ['jyvabroiler'], langs: ['fi'] }]);
  publisher = await enrolledStaff(t.app, [
    { role: 'publisher', sites: ['jyvabroiler'], langs: ['fi'] },
  ]);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('a seeded page', () => {
  it('opens as its live row, is drafted without touching the site, and publishes its blocks in their new order', async () => {
    await anonymous('/yritys');
    expect(hit(await anonymous('/yritys'))).toBe(true);
    const first = await opened(await open(editor.visitor, aboutId));
    expect(first.item).toMatchObject({ headVersion: 1, publishedVersion: 1 });
    expect(first.head.document.blocks).toHaveLength(2);

    // The blocks reordered, one added: a draft, the site as it was, the cache still serving.
    const [a, b] = first.head.document.blocks;
    const blocks = [b, a, { type: 'rich-text', html: '<p><strong>Uusi</strong> lohko</p>' }];
    const drafted = await opened(
      await save(editor.visitor, aboutId, 1, { ...first.head.document, blocks }),
    );
    expect(drafted.head).toMatchObject({ version: 2, status: 'draft' });
    const still = await anonymous('/yritys');
    expect(hit(still)).toBe(true);
    expect(still.body.indexOf('Ensimmäinen lohko')).toBeLessThan(
      still.body.indexOf('Toinen lohko'),
    );
    expect(still.body).not.toContain('Uusi');

    // An editor may not publish; a publisher may, and the site shows the new order at once.
    expect((await publish(editor.visitor, aboutId, 2)).statusCode).toBe(403);
    await opened(await publish(publisher.visitor, aboutId, 2));
    const shown = await anonymous('/yritys');
    expect(hit(shown)).toBe(false);
    const at = (text: string) => shown.body.indexOf(text);
    expect(at('Toinen lohko')).toBeGreaterThan(-1);
    expect(at('Toinen lohko')).toBeLessThan(at('Ensimmäinen lohko'));
    expect(at('Ensimmäinen lohko')).toBeLessThan(at('<strong>Uusi</strong> lohko'));
    const audit = await auditOf(t.app, 'content.publish');
    expect(audit.some((r) => r.subjectType === 'page' && r.subjectId === String(aboutId))).toBe(
      true,
    );
  });

  it('refuses a block its renderer would not render, a missing picture, a taken path and a loop in the tree', async () => {
    const now = await opened(await open(editor.visitor, aboutId));
    const doc = now.head.document;
    const v = now.head.version;
    const refused = async (document: unknown) => {
      const res = await save(editor.visitor, aboutId, v, document);
      expect(res.statusCode, res.body).toBe(400);
      return Object.keys((res.json() as { errors: Record<string, string> }).errors);
    };
    expect(await refused({ ...doc, blocks: [{ type: 'rich-text' }] })).toContain(
      'document.blocks.0.html',
    );
    expect(await refused({ ...doc, blocks: [{ type: 'no-such-block' }] })).toEqual([
      'document.blocks.0.type',
    ]);
    expect(
      await refused({
        ...doc,
        blocks: [{ type: 'hero-carousel', slides: [{ imageId: 999_999, text: '<p>x</p>' }] }],
      }),
    ).toEqual(['document.blocks.0.slides.0.imageId']);
    expect(await refused({ ...doc, path: '/' })).toEqual(['document.path']);
    expect(await refused({ ...doc, parentId: aboutId })).toEqual(['document.parentId']);
    expect(await refused({ ...doc, type: 'home' })).toEqual(['document.type']);
    // A picture that exists is taken.
    const withImage = await opened(
      await save(editor.visitor, aboutId, v, {
        ...doc,
        blocks: [
          ...doc.blocks,
          { type: 'hero-carousel', slides: [{ imageId, text: '<p>Tila</p>' }] },
        ],
      }),
    );
    expect(withImage.head.version).toBe(v + 1);
    // Made on the older version: 409 with the newest, nothing written.
    const stale = await save(editor.visitor, aboutId, v, doc);
    expect(stale.statusCode).toBe(409);
    expect((stale.json() as { current: { version: number } }).current.version).toBe(v + 1);
    expect((await opened(await open(editor.visitor, aboutId))).head.version).toBe(v + 1);
  });

  it('of another site or language is refused', async () => {
    expect((await open(editor.visitor, sibyllaPageId)).statusCode).toBe(403);
    const tree = await editor.visitor.get(`${PAGES_ADMIN_API}/tree?site=sibylla&lang=fi`);
    expect(tree.statusCode).toBe(403);
    const made = await editor.visitor.post(
      `${PAGES_ADMIN_API}?site=jyvabroiler&lang=sv`,
      json({ document: page('Om oss', '/om-oss') }),
    );
    expect(made.statusCode).toBe(403);
  });
});

describe('a page path', () => {
  it('that moves after publishing answers 301 from the old one (decision 165)', async () => {
    const made = await opened(
      await editor.visitor.post(
        `${PAGES_ADMIN_API}?site=jyvabroiler&lang=fi`,
        json({ document: page('Vastuullisuus', '/a') }),
      ),
    );
    const id = made.item.id;
    expect((await anonymous('/a')).statusCode).toBe(404);
    await opened(await publish(publisher.visitor, id, 1));
    const before = await anonymous('/a');
    expect(before.statusCode).toBe(200);
    expect(before.body).toContain('Vastuullisuus');

    const renamed = await opened(await save(editor.visitor, id, 1, page('Vastuullisuus', '/b')));
    // A draft moves nothing yet.
    expect((await anonymous('/a')).statusCode).toBe(200);
    await opened(await publish(publisher.visitor, id, renamed.head.version));
    const old = await anonymous('/a?x=1');
    expect(old.statusCode).toBe(301);
    expect(old.headers.location).toBe('/b?x=1');
    expect((await anonymous('/b')).statusCode).toBe(200);
    const [row] = await t.app.db.select().from(pages).where(eq(pages.id, id));
    expect(row?.path).toBe('/b');
  });
});

describe('the page tree', () => {
  it('lists every page of the site and language with its parent, and new pages as drafts', async () => {
    const draft = await opened(
      await editor.visitor.post(
        `${PAGES_ADMIN_API}?site=jyvabroiler&lang=fi`,
        json({ document: page('Ura', '/ura', { parentId: aboutId }) }),
      ),
    );
    const res = await editor.visitor.get(`${PAGES_ADMIN_API}/tree`);
    expect(res.statusCode, res.body).toBe(200);
    const tree = res.json() as PageTree;
    expect(tree).toMatchObject({ siteId: 'jyvabroiler', lang: 'fi' });
    expect(tree.scopes).toEqual([{ siteId: 'jyvabroiler', lang: 'fi' }]);
    const byId = new Map(tree.pages.map((p) => [p.id, p]));
    expect(byId.get(homeId)).toMatchObject({ parentId: null, path: '/' });
    expect(byId.get(aboutId)).toMatchObject({ parentId: homeId, state: 'changed' });
    expect(byId.get(draft.item.id)).toMatchObject({ parentId: aboutId, state: 'draft' });
    expect(tree.pages.some((p) => p.id === sibyllaPageId)).toBe(false);
  });
});

describe('a preview of a page', () => {
  it('shows the draft on the site’s renderer, marked and never cached', async () => {
    const now = await opened(await open(editor.visitor, aboutId));
    const drafted = await opened(
      await save(editor.visitor, aboutId, now.head.version, {
        ...now.head.document,
        blocks: [{ type: 'rich-text', html: '<p>Esikatselun lohko</p>' }],
      }),
    );
    const link = await editor.visitor.post(
      `${PAGES_ADMIN_API}/${aboutId}/preview`,
      json({ version: drafted.head.version }),
    );
    expect(link.statusCode, link.body).toBe(200);
    const url = new URL((link.json() as { url: string }).url);
    const shown = await anonymous(url.pathname);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['cache-control']).toBe('no-store');
    expect(shown.body).toContain('Esikatselun lohko');
    expect((await anonymous('/yritys')).body).not.toContain('Esikatselun lohko');
    const audit = await auditOf(t.app, 'content.preview');
    expect(audit.some((r) => r.subjectType === 'page' && r.subjectId === String(aboutId))).toBe(
      true,
    );
  });
});

describe('a page’s menu (decision 172)', () => {
  type Tab = { label: string; link: string };
  const menus = async () => {
    const res = await anonymous('/api/nav/desktop?languageId=fi');
    expect(res.statusCode, res.body).toBe(200);
    const nav = res.json() as { topTabs: Tab[]; bottomTabs: Tab[] };
    return {
      top: nav.topTabs.map((tab) => tab.label),
      bottom: nav.bottomTabs.map((tab) => tab.label),
    };
  };

  it('moves between the main menu and the top menu when published, not when drafted', async () => {
    const made = await opened(
      await editor.visitor.post(
        `${PAGES_ADMIN_API}?site=jyvabroiler&lang=fi`,
        json({ document: page('Asiakaspalvelu', '/asiakaspalvelu') }),
      ),
    );
    const id = made.item.id;
    expect(made.head.document.navArea).toBe('bottom');
    await opened(await publish(publisher.visitor, id, 1));
    let now = await menus();
    expect(now.bottom).toContain('Asiakaspalvelu');
    expect(now.top).not.toContain('Asiakaspalvelu');

    // Not one of the two menus: refused with its field.
    const wrong = await save(editor.visitor, id, 1, {
      ...page('Asiakaspalvelu', '/asiakaspalvelu'),
      navArea: 'side',
    });
    expect(wrong.statusCode).toBe(400);
    expect(JSON.stringify(wrong.json())).toContain('document.navArea');

    const moved = await opened(
      await save(
        editor.visitor,
        id,
        1,
        page('Asiakaspalvelu', '/asiakaspalvelu', { navArea: 'top' }),
      ),
    );
    expect(moved.head.document.navArea).toBe('top');
    // A draft moves nothing on the site.
    now = await menus();
    expect(now.bottom).toContain('Asiakaspalvelu');
    expect(now.top).not.toContain('Asiakaspalvelu');

    await opened(await publish(publisher.visitor, id, moved.head.version));
    now = await menus();
    expect(now.top).toContain('Asiakaspalvelu');
    expect(now.bottom).not.toContain('Asiakaspalvelu');
    const [row] = await t.app.db.select().from(pages).where(eq(pages.id, id));
    expect(row?.navArea).toBe('top');
    // The site's header lists it in its top row.
    const home = await anonymous('/');
    const topNav = home.body.slice(home.body.indexOf('aria-label="Ylävalikko"'));
    expect(home.body).toContain('aria-label="Ylävalikko"');
    expect(topNav.slice(0, topNav.indexOf('</nav>'))).toContain('Asiakaspalvelu');
    const audit = await auditOf(t.app, 'content.publish');
    const last = audit.filter((r) => r.subjectType === 'page' && r.subjectId === String(id)).at(-1);
    expect(JSON.stringify(last?.changes)).toContain('navArea');
  });
});
