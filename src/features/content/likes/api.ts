import { sendWithToken } from '../../../client/send.ts';
import type { LikeAnswer } from './schemas.ts';
import { LIKE_API, LIKED_STORAGE_KEY } from './values.ts';

/** The browser side of the like API (spec §7), with the anti-forgery header (decision 003). */

/** Posts a like (no body); the stored count, or an error for any answer but 200. */
export async function postLike(contentId: string): Promise<LikeAnswer> {
  const response = await sendWithToken(`${LIKE_API}/${encodeURIComponent(contentId)}`, undefined, {
    headers: { accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`like API answered ${response.status}`);
  return (await response.json()) as LikeAnswer;
}

/** The content ids this browser has liked (local storage; spec §3). */
export function likedIds(): Set<string> {
  try {
    const raw = window.localStorage.getItem(LIKED_STORAGE_KEY);
    const list: unknown = raw ? JSON.parse(raw) : [];
    return new Set(Array.isArray(list) ? list.filter((v) => typeof v === 'string') : []);
  } catch {
    return new Set();
  }
}

export function rememberLiked(contentId: string): void {
  try {
    const ids = likedIds();
    ids.add(contentId);
    window.localStorage.setItem(LIKED_STORAGE_KEY, JSON.stringify([...ids]));
  } catch {
    // Storage full or refused: the server still counts the visitor once.
  }
}
