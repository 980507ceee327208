import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { jsonAnswer } from '../../../server/openapi.ts';
import { perMinute } from '../../../server/rate-limit.ts';
import type { ZodApp } from '../../../server/types.ts';
import { adminRoute, queryScope } from '../../staff/index.server.ts';
import { previewLink } from './preview.server.ts';
import {
  itemIdParamsSchema,
  presenceSchema,
  previewLinkSchema,
  previewRequestSchema,
  publishSchema,
  restoreSchema,
  scopeQuerySchema,
  versionParamsSchema,
} from './schemas.ts';
import {
  assertMayEdit,
  createItem,
  heartbeat,
  type KindAdapter,
  leave,
  openItem,
  publishVersion,
  readVersion,
  restoreVersion,
  saveDraft,
} from './versions.server.ts';

/** Rate limits and the body limit of the content editing routes (shared by every kind). */
export const READ = perMinute(600);
export const WRITE = perMinute(240);
/** A document is a few KiB (a page of many blocks some tens); 256 KiB refuses nonsense. */
export const BODY_LIMIT = 256 * 1024;

/** A route for a site and language named in its query: the guard checks the grant for it. */
export const scoped = { staff: { permission: 'content.edit', scope: queryScope } } as const;

/** What one kind's item routes need: its address, its adapter and its answers' schemas. */
export interface ItemRoutes<Doc extends object> {
  /** The kind's collection address (`/api/admin/content/recipes`); an item is `<api>/:id`. */
  api: string;
  adapter: KindAdapter<Doc>;
  /** The kind's name in the routes' descriptions (`recipe`, `page`). */
  noun: string;
  /** An item opened for editing (`openItem`'s answer). */
  openSchema: z.ZodType;
  /** One version whole (`readVersion`'s answer). */
  versionSchema: z.ZodType;
  /** A save: `{ basedOn, document }` with the kind's document schema. */
  saveSchema: z.ZodType<{ basedOn: number; document: Doc }>;
  /** What a save's description adds about the kind's document. */
  saveNote?: string;
  /**
   * A kind whose publishing carries more than the version (a news release's mailing): its body
   * (with `version`) and what publishing it does. Otherwise `{ version }` and `publishVersion`.
   */
  publish?: {
    body: z.ZodType<{ version: number }>;
    run: (request: FastifyRequest, id: number, body: { version: number }) => Promise<void>;
    note: string;
  };
  /**
   * Whether a version can be previewed on the site (true, the default, for kinds with pages of
   * their own; a row shown only in other pages' widgets has none, decision 171).
   */
  preview?: boolean;
}

/**
 * Guards of a route about one item: `content.edit` somewhere, and the grant for the item's own
 * site and language checked before the body is read (403 outside it, whatever the body says).
 */
export function itemGuard<Doc extends object>(adapter: KindAdapter<Doc>) {
  return {
    staff: { permission: 'content.edit' },
    preValidation: async (request: FastifyRequest) => {
      const id = Number((request.params as { id?: unknown }).id);
      // An id that is no number is refused by the params' schema (400).
      if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) return;
      await assertMayEdit(request, adapter, id);
    },
  } as const;
}

/**
 * The routes about one item of a kind (decision 162), the same for every kind: open, one
 * version, save, publish, restore, preview and presence. Writes name the version they were made
 * on (409 with the newest when stale); publishing needs `content.publish` for the item's site and
 * language. A kind's list, creation and choices are routes of its own module.
 */
export function contentItemRoutes<Doc extends object>(app: ZodApp, options: ItemRoutes<Doc>) {
  const { api, adapter, noun } = options;
  const onItem = itemGuard(adapter);
  const writer = { ...onItem, rateLimit: WRITE, bodyLimit: BODY_LIMIT };
  const opened = jsonAnswer(options.openSchema, `The ${noun} as it is now, opened for editing`);
  adminRoute(app, 'GET', `${api}/:id`, {
    ...onItem,
    rateLimit: READ,
    summary: `A ${noun} opened for editing: its newest version, its history and who else has it open`,
    params: itemIdParamsSchema,
    answer: opened,
    problems: [400, 401, 403, 404, 429],
    handler: (request) => openItem(request, adapter, request.params.id),
  });
  adminRoute(app, 'GET', `${api}/:id/versions/:version`, {
    ...onItem,
    rateLimit: READ,
    summary: `One version of a ${noun}, whole (to compare or restore)`,
    params: versionParamsSchema,
    answer: jsonAnswer(options.versionSchema, 'The version'),
    problems: [400, 401, 403, 404, 429],
    handler: (request) => readVersion(request, adapter, request.params.id, request.params.version),
  });
  adminRoute(app, 'PUT', `${api}/:id`, {
    ...writer,
    summary: 'Saves a draft: a new version; the site is not changed',
    description: `\`basedOn\` is the version the editor started from. When someone saved since, 409 (\`/problems/stale-version\`) with \`current\`, the newest version, to compare with and apply the edits to.${options.saveNote ? ` ${options.saveNote}` : ''}`,
    params: itemIdParamsSchema,
    body: options.saveSchema,
    answer: opened,
    problems: [400, 401, 403, 404, 409, 429],
    handler: async (request) => {
      const body = request.body as { basedOn: number; document: Doc };
      await saveDraft(request, adapter, request.params.id, body.basedOn, body.document);
      return openItem(request, adapter, request.params.id);
    },
  });
  adminRoute(app, 'POST', `${api}/:id/publish`, {
    ...writer,
    summary: 'Publishes the newest version: the site shows it, search finds it',
    description: `Needs \`content.publish\` for the ${noun}’s site and language. \`version\` must be the newest (409 with \`current\` otherwise); the same version again changes nothing. A published path that moves answers 301 to the new one.${options.publish ? ` ${options.publish.note}` : ''}`,
    params: itemIdParamsSchema,
    body: options.publish?.body ?? publishSchema,
    answer: opened,
    problems: [400, 401, 403, 404, 409, 429],
    handler: async (request) => {
      const body = request.body as { version: number };
      if (options.publish) await options.publish.run(request, request.params.id, body);
      else await publishVersion(request, adapter, request.params.id, body.version);
      return openItem(request, adapter, request.params.id);
    },
  });
  adminRoute(app, 'POST', `${api}/:id/restore`, {
    ...writer,
    summary: 'Makes an old version the newest again, as a new draft',
    description: '`basedOn` is the newest version the editor saw (409 with `current` when stale).',
    params: itemIdParamsSchema,
    body: restoreSchema,
    answer: opened,
    problems: [400, 401, 403, 404, 409, 429],
    handler: async (request) => {
      const { version, basedOn } = request.body;
      await restoreVersion(request, adapter, request.params.id, version, basedOn);
      return openItem(request, adapter, request.params.id);
    },
  });
  if (options.preview !== false) {
    adminRoute(app, 'POST', `${api}/:id/preview`, {
      ...writer,
      summary: 'A signed link that shows a version on the site for 15 minutes',
      description:
        'The page is rendered by the site’s own renderer and theme, marked as a preview, `no-store` and `noindex`; it never enters the page cache.',
      params: itemIdParamsSchema,
      body: previewRequestSchema,
      answer: jsonAnswer(previewLinkSchema, 'The link and when it stops opening'),
      problems: [400, 401, 403, 404, 429],
      handler: (request) => previewLink(request, request.params.id, request.body.version, adapter),
    });
  }
  adminRoute(app, 'PUT', `${api}/:id/presence`, {
    ...onItem,
    rateLimit: WRITE,
    summary: `The staff member has the ${noun} open (sent every 20 seconds); answers who else has`,
    params: itemIdParamsSchema,
    answer: jsonAnswer(presenceSchema, 'The others who have it open'),
    problems: [400, 401, 403, 404, 429],
    handler: async (request) => ({
      present: await heartbeat(request, adapter, request.params.id),
    }),
  });
  adminRoute(app, 'DELETE', `${api}/:id/presence`, {
    ...onItem,
    rateLimit: WRITE,
    summary: `The staff member closed the ${noun}`,
    params: itemIdParamsSchema,
    answer: jsonAnswer(presenceSchema, 'Nobody: the answer is always empty'),
    problems: [400, 401, 403, 429],
    handler: async (request) => {
      await leave(request, adapter, request.params.id);
      return { present: [] };
    },
  });
}

/**
 * A new item of a kind in a site and language (`site`, `lang`) with its first draft, answered
 * opened for editing (decision 162).
 */
export function contentCreateRoute<Doc extends object>(
  app: ZodApp,
  options: {
    api: string;
    adapter: KindAdapter<Doc>;
    noun: string;
    createSchema: z.ZodType<{ document: Doc }>;
    /** The answer: the item opened for editing. */
    answer: ReturnType<typeof jsonAnswer>;
    /** The field errors of its document the description names, if any. */
    fieldErrors?: string;
  },
) {
  const { adapter, fieldErrors } = options;
  adminRoute(app, 'POST', options.api, {
    ...scoped,
    rateLimit: WRITE,
    bodyLimit: BODY_LIMIT,
    summary: `Makes a ${options.noun} of a site and language (\`site\`, \`lang\`) with its first draft (version 1)`,
    description: `Nothing shows on the site until it is published. 403 for a site or language outside the grants; 400 with field errors${fieldErrors ? ` (${fieldErrors})` : ''}.`,
    querystring: scopeQuerySchema,
    body: options.createSchema,
    answer: options.answer,
    problems: [400, 401, 403, 429],
    handler: async (request) => {
      const { site: siteId, lang } = request.query;
      const { document } = request.body as { document: Doc };
      const id = await createItem(request, adapter, { siteId, lang }, document);
      return openItem(request, adapter, id);
    },
  });
}
