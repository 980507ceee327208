import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { captchaRoutes } from './captcha/routes.server.ts';
import { inboxRoutes } from './inbox/routes.server.ts';
import { startOutboxWorker } from './outbox.server.ts';
import { startRetentionJob } from './retention.server.ts';
import { formRoutes } from './routes.server.ts';

export { openText, sealText } from './crypto.server.ts';
export { FormBlock } from './form-block.tsx';
export { enqueueMail } from './outbox.server.ts';
/** The school materials the order form offers, read by the content feature's material list. */
export { schoolMaterials } from './tables.ts';

/**
 * The forms feature on the server: the captcha provider and its challenge route, the form
 * endpoints, the customer-service inbox's admin routes, and the two jobs (outbox worker, retention), started once the app is ready.
 */
export const formsPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(captchaRoutes);
    await app.register(formRoutes);
    await app.register(inboxRoutes);
    app.addHook('onReady', async () => {
      startOutboxWorker(app);
      startRetentionJob(app);
    });
  },
  { name: 'forms', dependencies: ['sessions', 'xsrf'] },
);
