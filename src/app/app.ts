import { randomUUID } from 'node:crypto';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import Fastify, {
  type FastifyInstance,
  type FastifyServerFactory,
  type FastifyServerOptions,
} from 'fastify';
import { type DatabaseHandle, databaseOptionsFromConfig, openDatabase } from '../db/client.ts';
import { runMigrations } from '../db/migrate.ts';
import { projectPath } from '../db/paths.ts';
import { contentPlugin } from '../features/content/index.server.ts';
import { formSettingsPlugin } from '../features/form-settings/index.server.ts';
import { formsPlugin } from '../features/forms/index.server.ts';
import { inboxPlugin } from '../features/inbox/index.server.ts';
import { lunchMenuPlugin } from '../features/lunch-menu/index.server.ts';
import { navigationPlugin } from '../features/navigation/index.server.ts';
import { personalDataPlugin } from '../features/personal-data/index.server.ts';
import { searchPlugin } from '../features/search/index.server.ts';
import { shopPlugin } from '../features/shop/index.server.ts';
import { staffPlugin } from '../features/staff/index.server.ts';
import { subscriptionsPlugin } from '../features/subscriptions/index.server.ts';
import { imageRoutes } from '../images/routes.server.ts';
import { type AssetProvider, manifestAssets } from '../render/assets.ts';
import { PageCache } from '../render/page-cache.ts';
import type { Config } from '../server/config.ts';
import { type FileStore, openFileStore } from '../server/file-store.ts';
import { healthRoutes } from '../server/health.ts';
import { logSerializers, OneLineRequestLog } from '../server/log.ts';
import { DatabaseOutage } from '../server/outage.ts';
import { clientErrorHandler, errorsPlugin, frameworkErrors } from '../server/plugins/errors.ts';
import { openapiPlugin } from '../server/plugins/openapi.ts';
import { requestContext } from '../server/plugins/request-context.ts';
import { requestStringsPlugin } from '../server/plugins/request-strings.ts';
import { securityPlugin } from '../server/plugins/security.ts';
import { sessionsPlugin } from '../server/plugins/sessions.ts';
import { xsrfPlugin } from '../server/plugins/xsrf.ts';
import { openSharedCounters } from '../server/redis.ts';
import { trustProxyOption } from '../server/trust-proxy.ts';
import { jsonSerializerCompiler, zodValidatorCompiler } from '../server/validate.ts';
import { createSiteResolver } from '../sites/resolve.ts';
import { adminShellRoutes } from './admin-shell.server.ts';
import { loadIslands } from './islands.ts';
import { pageRoutes, siteLayout } from './page-routes.server.tsx';
import '../server/types.ts';

export interface AppOptions {
  config: Config;
  /** An open database (tests); otherwise the one the configuration names is opened and migrated. */
  database?: DatabaseHandle;
  /** The file store; otherwise the configured one (the S3 bucket, or the local FILES_DIR). */
  files?: FileStore;
  /** Where the client's scripts and styles come from; the production build by default. */
  assets?: AssetProvider;
  /** false: no logging (tests). */
  logger?: false;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: NodeJS.WritableStream;
  /** The page cache's size in bytes (decision 033) instead of the configuration's. */
  pageCacheBytes?: number;
  /** Used by the development server to swap the app on code changes. */
  serverFactory?: FastifyServerFactory;
}

const REQUEST_ID = /^[\w.-]{1,64}$/;

/** Builds the whole application: used by `main.ts` to listen and by tests through `inject`. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: options.logger ?? {
      ...loggerOptions(config),
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    trustProxy: trustProxyOption(config.trustProxy),
    // One line a request at most.
    logController: new OneLineRequestLog(config.slowRequestMs),
    bodyLimit: 1024 * 1024,
    // A request (headers and body) that takes longer than this is answered 408 and closed.
    requestTimeout: config.requestTimeoutMs,
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    // Errors before any route runs (the HTTP parser's, the router's) answer problem+json too.
    clientErrorHandler,
    frameworkErrors: frameworkErrors as FastifyServerOptions['frameworkErrors'],
    ...(options.serverFactory ? { serverFactory: options.serverFactory } : {}),
  });

  const { database, sharedCounters } = await openStores(app, options);

  const clientDir = projectPath('dist/client');
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate('sharedCounters', sharedCounters);
  app.decorate('sites', createSiteResolver(config));
  app.decorate('assets', options.assets ?? manifestAssets(clientDir));
  app.decorate('errorPage', { render: undefined });
  // Requests that fail because the database cannot be reached start and count an outage; the
  // error handler answers them (decision 140).
  const outage = new DatabaseOutage(() => database.ping(), app.log);
  app.decorate('databaseOutage', outage);
  app.addHook('onClose', async () => outage.close());
  const files = options.files ?? (await openFileStore(config));
  if (!options.files) app.addHook('onClose', async () => files.close?.());
  app.decorate('files', files);
  app.decorate('islands', await loadIslands());
  // Pages that anonymous visitors share, void after every content change (decision 033). The
  // development server renders every page afresh.
  database.watchContent();
  app.decorate(
    'pageCache',
    new PageCache({
      maxBytes:
        config.env === 'development' ? 0 : (options.pageCacheBytes ?? config.pageCacheBytes),
      version: database.contentVersion,
    }),
  );

  // While shutting down, answers close their connection, so a keep-alive socket does not hold
  // the process open until its idle timeout.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (closing) reply.header('connection', 'close');
  });

  await registerPlugins(app, config);
  return app;
}

/**
 * The database (opened and migrated here unless the caller hands one in) and, when Redis is
 * configured, the counters shared by every process (decision 032); each closes with the app.
 */
async function openStores(app: FastifyInstance, options: AppOptions) {
  const { config } = options;
  const ownsDatabase = !options.database;
  const database = options.database ?? (await openDatabase(databaseOptionsFromConfig(config)));
  try {
    if (ownsDatabase) await runMigrations(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  if (ownsDatabase) app.addHook('onClose', async () => database.close());

  // Rate limits and the upload gate count in Redis when it is configured (decision 032).
  let sharedCounters: Awaited<ReturnType<typeof openSharedCounters>> | undefined;
  if (config.redisUrl) {
    try {
      sharedCounters = await openSharedCounters(config.redisUrl, {
        keyPrefix: config.redisPrefix,
        log: app.log,
      });
    } catch (error) {
      if (ownsDatabase) await database.close();
      throw error;
    }
    const counters = sharedCounters;
    app.addHook('onClose', async () => counters.close());
  }
  return { database, sharedCounters };
}

/** The plugins and every feature's routes, in the order their hooks and guards need. */
async function registerPlugins(app: FastifyInstance, config: Config) {
  // Routes declare zod schemas: requests are parsed with them, answers only documented.
  app.setValidatorCompiler(zodValidatorCompiler());
  app.setSerializerCompiler(jsonSerializerCompiler);

  await app.register(errorsPlugin);
  await app.register(securityPlugin);
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(cookie, { secret: config.sessionSecret });
  await app.register(requestContext);
  await app.register(sessionsPlugin);
  await app.register(xsrfPlugin);
  await app.register(requestStringsPlugin);

  if (app.assets.staticDir) {
    await app.register(fastifyStatic, {
      root: app.assets.staticDir,
      prefix: '/assets/',
      preCompressed: true,
      immutable: true,
      maxAge: '365d',
      wildcard: false,
      index: false,
    });
  }

  // Before the routes: the API document lists the routes registered after it.
  await app.register(openapiPlugin);
  await app.register(healthRoutes);
  // Before every feature's admin routes: its guard sees the routes registered after it.
  await app.register(staffPlugin);
  await app.register(adminShellRoutes);
  await app.register(imageRoutes);
  await app.register(navigationPlugin);
  await app.register(formsPlugin);
  await app.register(formSettingsPlugin);
  await app.register(inboxPlugin);
  await app.register(searchPlugin);
  await app.register(shopPlugin, { layout: siteLayout });
  await app.register(subscriptionsPlugin, { layout: siteLayout });
  await app.register(personalDataPlugin);
  await app.register(lunchMenuPlugin);
  await app.register(contentPlugin);
  await app.register(pageRoutes);
}

function loggerOptions(config: Config) {
  return {
    level: config.logLevel,
    serializers: logSerializers,
    ...(config.env === 'development'
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' },
          },
        }
      : {}),
  };
}
