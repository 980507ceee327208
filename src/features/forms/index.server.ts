import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { captchaRoutes } from './captcha/routes.server.ts';
import { startEmailHashBackfill } from './email-hashes.server.ts';
import { startOutboxWorker } from './outbox.server.ts';
import { startRetentionJob } from './retention.server.ts';
import { formRoutes } from './routes.server.ts';

export { openBytes, openText, sealText } from './crypto.server.ts';
export { FormBlock } from './form-block.tsx';
export { enqueueMail } from './outbox.server.ts';
export {
  eraseOutboxMails,
  eraseSubmissions,
  findOutboxMails,
  findSubmissions,
  type StoredSubmissionFile,
  submissionFiles,
} from './personal-data.server.ts';
export type { RetentionCondition } from './retention.server.ts';
export {
  defaultRecipients,
  type FormSettingsWrite,
  StaleFormSettings,
  type StoredFormSettings,
  storedFormSettingsOfSite,
  successPageOf,
  writeFormSettings,
} from './settings.server.ts';
/** The school materials the order form offers, read by the content feature's material list. */
/** The stored submissions and their files, for the customer-service inbox. */
export { formSubmissionFiles, formSubmissions, schoolMaterials } from './tables.ts';

/**
 * The forms feature on the server: the captcha provider and its challenge route, the form
 * endpoints, and the two jobs (outbox worker, retention), started once the app is ready. Another
 * feature may keep expired submissions (`app.submissionRetention`, the inbox's legal hold).
 */
export const formsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('submissionRetention', []);
    await app.register(captchaRoutes);
    await app.register(formRoutes);
    app.addHook('onReady', async () => {
      startOutboxWorker(app);
      startRetentionJob(app);
      startEmailHashBackfill(app);
    });
  },
  { name: 'forms', dependencies: ['sessions', 'xsrf'] },
);
