/** The result of checking a captcha token. `id` marks the token as spent (single use). */
export type CaptchaCheck =
  | { ok: true; id: string; expiresAt: Date }
  | { ok: false; reason: 'missing' | 'invalid' | 'expired' | 'unavailable' };

/** What the browser needs to show the provider's widget. */
export type CaptchaWidgetConfig =
  | { provider: 'altcha'; challengeUrl: string }
  | { provider: 'mtcaptcha'; siteKey: string };

/** A captcha service: ALTCHA (self-hosted proof of work) by default, MTCaptcha when configured. */
export interface CaptchaProvider {
  readonly name: 'altcha' | 'mtcaptcha';
  verify(token: string): Promise<CaptchaCheck>;
  /** A new challenge for the widget (ALTCHA only). */
  challenge?(): Promise<unknown>;
  widget: CaptchaWidgetConfig;
}
