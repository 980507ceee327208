import { createHash } from 'node:crypto';
import type { CaptchaCheck, CaptchaProvider } from './provider.server.ts';

const TIMEOUT_MS = 5_000;
/** MTCaptcha tokens are short-lived; a spent one is remembered at least this long. */
const TOKEN_TTL_MS = 15 * 60 * 1000;

interface CheckTokenAnswer {
  success?: boolean;
  fail_codes?: string[];
}

/**
 * MTCaptcha: the widget (theirs) gives a token; the server asks their token-check API with the
 * private key. A failing or slow API counts as "not verified", never as a pass.
 */
export class MtCaptchaProvider implements CaptchaProvider {
  readonly name = 'mtcaptcha';
  readonly widget;

  constructor(
    private readonly options: { siteKey: string; privateKey: string; checkUrl: string },
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.widget = { provider: 'mtcaptcha' as const, siteKey: options.siteKey };
  }

  async verify(token: string): Promise<CaptchaCheck> {
    if (!token) return { ok: false, reason: 'missing' };
    if (token.length > 4_000) return { ok: false, reason: 'invalid' };
    const url = new URL(this.options.checkUrl);
    url.searchParams.set('privatekey', this.options.privateKey);
    url.searchParams.set('token', token);
    let answer: CheckTokenAnswer;
    try {
      const response = await this.fetchImpl(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
      if (!response.ok) return { ok: false, reason: 'unavailable' };
      answer = (await response.json()) as CheckTokenAnswer;
    } catch {
      return { ok: false, reason: 'unavailable' };
    }
    if (answer.success !== true) {
      const expired = answer.fail_codes?.some((c) => c.includes('expired')) ?? false;
      return { ok: false, reason: expired ? 'expired' : 'invalid' };
    }
    return {
      ok: true,
      id: createHash('sha256').update(`mtcaptcha:${token}`).digest('hex'),
      expiresAt: new Date(Date.now() + TOKEN_TTL_MS),
    };
  }
}
