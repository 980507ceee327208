import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotFound } from '../../../server/errors.ts';
import { jsonAnswer, problemAnswers } from '../../../server/openapi.ts';
import { perMinute } from '../../../server/rate-limit.ts';
import { CAPTCHA_CHALLENGE_PATH } from '../forms.ts';
import { AltchaProvider } from './altcha.server.ts';
import { MtCaptchaProvider } from './mtcaptcha.server.ts';
import type { CaptchaProvider } from './provider.server.ts';

declare module 'fastify' {
  interface FastifyInstance {
    captcha: CaptchaProvider;
  }
}

/** An ALTCHA challenge (altcha-lib v2): the widget solves it and sends the solution as the token. */
const challengeSchema = z.looseObject({
  parameters: z.looseObject({
    algorithm: z.string(),
    nonce: z.string(),
    salt: z.string(),
    cost: z.number(),
    keyLength: z.number(),
    keyPrefix: z.string(),
    keySignature: z.string().optional(),
    expiresAt: z.number().optional(),
  }),
  signature: z.string().optional(),
});

export function captchaProviderOf(app: FastifyInstance): CaptchaProvider {
  const forms = app.config.forms;
  if (forms.captchaProvider === 'mtcaptcha') {
    if (!forms.mtcaptcha) {
      throw new Error(
        'CAPTCHA_PROVIDER=mtcaptcha needs MTCAPTCHA_SITE_KEY and MTCAPTCHA_PRIVATE_KEY',
      );
    }
    return new MtCaptchaProvider(forms.mtcaptcha);
  }
  return new AltchaProvider(forms.altchaHmacKey, forms.altchaMaxNumber, CAPTCHA_CHALLENGE_PATH);
}

/** The captcha provider (`app.captcha`) and, for ALTCHA, `GET /api/captcha/challenge`. */
export const captchaRoutes = fp(
  async (app: FastifyInstance) => {
    const provider = captchaProviderOf(app);
    app.decorate('captcha', provider);
    app.withTypeProvider<ZodTypeProvider>().get(
      CAPTCHA_CHALLENGE_PATH,
      {
        config: { session: false, rateLimit: perMinute(120) },
        schema: {
          tags: ['forms'],
          summary: 'A new ALTCHA challenge for a form’s captcha',
          response: {
            200: jsonAnswer(challengeSchema, 'A signed proof-of-work challenge'),
            ...problemAnswers(404, 429),
          },
        },
      },
      async (_request, reply) => {
        if (!provider.challenge)
          throw new NotFound('The captcha provider hands out no challenges.');
        reply.header('cache-control', 'no-store');
        return (await provider.challenge()) as z.output<typeof challengeSchema>;
      },
    );
  },
  { name: 'captcha' },
);
