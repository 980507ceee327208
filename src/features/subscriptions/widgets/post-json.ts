import { sendWithToken } from '../../../client/send.ts';
import type { Lang } from '../../../sites/types.ts';

// Apart from the kit: the modals' islands hydrate without it, their forms (loaded when opened)
// bring it.

export interface PostAnswer {
  status: number;
  ok: boolean;
  errors?: Record<string, string>;
}

/**
 * JSON with the anti-forgery header; success is 200 with `success: true` (spec §7, §8). The page's
 * language goes along (`?language=`): the consent text stored and the mail sent speak it.
 */
export async function postJson(path: string, lang: Lang, payload: unknown): Promise<PostAnswer> {
  try {
    const response = await sendWithToken(`${path}?language=${lang}`, payload);
    const body = (await response.json().catch(() => ({}))) as {
      success?: boolean;
      errors?: Record<string, string>;
    };
    return {
      status: response.status,
      ok: response.status === 200 && body.success === true,
      ...(body.errors ? { errors: body.errors } : {}),
    };
  } catch {
    return { status: 0, ok: false };
  }
}
