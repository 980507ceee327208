/** The browser side of the form endpoints: JSON with the anti-forgery header, and analytics. */

import { sendWithToken } from '../../../client/send.ts';

export interface FormAnswer {
  status: number;
  isSuccess: boolean;
  redirect?: string;
  errors?: Record<string, string>;
  retryAfter?: number;
}

export async function postForm(path: string, payload: unknown): Promise<FormAnswer> {
  try {
    // The page's language version: its success page and the submission's language (decision 170).
    const lang = document.documentElement.lang;
    const response = await sendWithToken(lang ? `${path}?lang=${lang}` : path, payload);
    const body = (await response.json().catch(() => ({}))) as Partial<FormAnswer>;
    return {
      status: response.status,
      isSuccess: response.ok && body.isSuccess === true,
      ...(body.redirect ? { redirect: body.redirect } : {}),
      ...(body.errors ? { errors: body.errors } : {}),
      ...(response.status === 503
        ? { retryAfter: Number(response.headers.get('retry-after') ?? 5) }
        : {}),
    };
  } catch {
    return { status: 0, isSuccess: false };
  }
}

export async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return (await response.json()) as T;
}

declare global {
  interface Window {
    dataLayer?: Record<string, unknown>[];
  }
}

/** Pushes an analytics event to the tag manager's data layer. */
export function pushEvent(event: Record<string, unknown>): void {
  window.dataLayer ??= [];
  window.dataLayer.push(event);
}
