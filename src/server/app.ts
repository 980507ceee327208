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
import { cartPlugin } from '../features/cart/index.server.ts';
import { imageRoutes } from '../features/content/images/routes.server.ts';
import { contentRoutes } from '../features/content/routes.server.tsx';
import { seoRoutes } from '../features/content/seo/routes.server.ts';
import { captchaRoutes } from '../features/forms/captcha/routes.server.ts';
import { formRoutes } from '../features/forms/routes.server.ts';
import { navigationRoutes } from '../features/navigation/routes.server.ts';
import { searchRoutes } from '../features/search/routes.server.ts';
import { type AssetProvider, manifestAssets } from '../render/assets.ts';
import { createSiteResolver } from '../sites/resolve.ts';
import type { Config } from './config.ts';
import { type FileStore, LocalFileStore } from './file-store.ts';
import { healthRoutes } from './health.ts';
import { logSerializers } from './log.ts';
import { projectPath } from './paths.ts';
import { clientErrorHandler, errorsPlugin, frameworkErrors } from './plugins/errors.ts';
import { requestContext } from './plugins/request-context.ts';
import { requestStringsPlugin } from './plugins/request-strings.ts';
import { securityPlugin } from './plugins/security.ts';
import { sessionsPlugin } from './plugins/sessions.ts';
import { xsrfPlugin } from './plugins/xsrf.ts';
import { trustProxyOption } from './trust-proxy.ts';
import './types.ts';

export interface AppOptions {
  config: Config;
  /** An open database (tests); otherwise the one the configuration names is opened and migrated. */
  database?: DatabaseHandle;
  /** The file store; a local folder under the configuration's FILES_DIR by default. */
  files?: FileStore;
  /** Where the client's scripts and styles come from; the production build by default. */
  assets?: AssetProvider;
  /** false: no logging (tests). */
  logger?: false;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: NodeJS.WritableStream;
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

  const ownsDatabase = !options.database;
  const database = options.database ?? (await openDatabase(databaseOptionsFromConfig(config)));
  try {
    if (ownsDatabase) await runMigrations(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  if (ownsDatabase) app.addHook('onClose', async () => database.close());

  const clientDir = projectPath('dist/client');
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate('sites', createSiteResolver(config));
  app.decorate('assets', options.assets ?? manifestAssets(clientDir));
  app.decorate('errorPage', { render: undefined });
  app.decorate('files', options.files ?? new LocalFileStore(config.filesDir));

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

  await app.register(healthRoutes);
  await app.register(imageRoutes);
  await app.register(seoRoutes);
  await app.register(navigationRoutes);
  await app.register(captchaRoutes);
  await app.register(formRoutes);
  await app.register(searchRoutes);
  await app.register(cartPlugin);
  await app.register(contentRoutes);
  return app;
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
