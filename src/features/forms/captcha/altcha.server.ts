import { createHash } from 'node:crypto';
import { createChallenge, type Payload, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { CaptchaCheck, CaptchaProvider } from './provider.server.ts';

const ALGORITHM = 'SHA-256';
/** A challenge must be solved and sent within this time. */
export const CHALLENGE_TTL_MS = 10 * 60 * 1000;
const MAX_TOKEN_LENGTH = 20_000;

/**
 * ALTCHA: the server hands out HMAC-signed proof-of-work challenges; the widget (or any client)
 * finds the counter and sends the base64 JSON payload as the token. The challenge's nonce is the
 * token's identity for single use.
 */
export class AltchaProvider implements CaptchaProvider {
  readonly name = 'altcha';
  readonly widget;

  constructor(
    private readonly hmacKey: string,
    private readonly maxNumber: number,
    challengeUrl: string,
  ) {
    this.widget = { provider: 'altcha' as const, challengeUrl };
  }

  private get keySecret(): string {
    return createHash('sha256').update(`altcha-key:${this.hmacKey}`).digest('hex');
  }

  challenge() {
    return createChallenge({
      algorithm: ALGORITHM,
      cost: 1,
      counter: randomInt(this.maxNumber, Math.max(1, Math.floor(this.maxNumber / 10))),
      deriveKey,
      expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
      hmacSignatureSecret: this.hmacKey,
      hmacKeySignatureSecret: this.keySecret,
    });
  }

  async verify(token: string): Promise<CaptchaCheck> {
    if (!token) return { ok: false, reason: 'missing' };
    const payload = token.length <= MAX_TOKEN_LENGTH ? parsePayload(token) : undefined;
    if (!payload) return { ok: false, reason: 'invalid' };
    try {
      const result = await verifySolution({
        challenge: payload.challenge,
        solution: payload.solution,
        deriveKey,
        hmacSignatureSecret: this.hmacKey,
        hmacKeySignatureSecret: this.keySecret,
      });
      if (result.expired) return { ok: false, reason: 'expired' };
      if (!result.verified) return { ok: false, reason: 'invalid' };
    } catch {
      return { ok: false, reason: 'invalid' };
    }
    const { nonce, expiresAt } = payload.challenge.parameters;
    return {
      ok: true,
      id: createHash('sha256').update(`altcha:${nonce}`).digest('hex'),
      expiresAt: new Date((expiresAt ?? Date.now() / 1000 + CHALLENGE_TTL_MS / 1000) * 1000),
    };
  }
}

function parsePayload(token: string): Payload | undefined {
  try {
    const value = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as unknown;
    if (!value || typeof value !== 'object') return undefined;
    const { challenge, solution } = value as Partial<Payload>;
    if (!challenge?.parameters || typeof challenge.parameters !== 'object') return undefined;
    if (!solution || typeof solution !== 'object') return undefined;
    return { challenge, solution };
  } catch {
    return undefined;
  }
}
