import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { CAPTCHA_CHALLENGE_PATH } from '../forms.ts';
import { AltchaProvider } from './altcha.server.ts';
import { MtCaptchaProvider } from './mtcaptcha.server.ts';
import type { CaptchaProvider } from './provider.server.ts';

declare module 'fastify' {
  interface FastifyInstance {
    captcha: CaptchaProvider;
  }
}

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
    app.get(
      CAPTCHA_CHALLENGE_PATH,
      { config: { session: false, rateLimit: { max: 120, timeWindow: 60_000 } } },
      async (_request, reply) => {
        reply.header('cache-control', 'no-store');
        if (!provider.challenge) return reply.status(404).send({ provider: provider.name });
        return provider.challenge();
      },
    );
  },
  { name: 'captcha' },
);
