import { useEffect, useState } from 'react';
import { useT } from '../../../i18n/react.tsx';
import { likedIds, postLike, rememberLiked } from './api.ts';
import styles from './like-button.module.css';

export interface LikeButtonProps {
  /** `recipe-12`, `product-34` (decision 040). */
  contentId: string;
  /** The stored count when the page was made. */
  likeCount: number;
}

/**
 * The like button (island `like-button`, spec §4): enabled until liked; a like raises the count by
 * one at once, stores the id in local storage and disables the button; content liked before in
 * this browser starts disabled. The server counts the visitor once whatever happens here, and its
 * answer (the stored count) replaces the local one.
 */
export function LikeButton(props: LikeButtonProps) {
  const t = useT();
  const [count, setCount] = useState(props.likeCount);
  const [liked, setLiked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  // After hydration: the server HTML knows nothing of this browser's storage.
  useEffect(() => {
    if (likedIds().has(props.contentId)) setLiked(true);
  }, [props.contentId]);

  async function like() {
    if (liked || busy) return;
    setBusy(true);
    setFailed(false);
    setCount((c) => c + 1);
    setLiked(true);
    try {
      const answer = await postLike(props.contentId);
      rememberLiked(props.contentId);
      setCount(answer.likeCount);
    } catch {
      setCount((c) => c - 1);
      setLiked(false);
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className={styles.like}>
      <button
        type="button"
        className={styles.button}
        disabled={liked}
        aria-pressed={liked}
        onClick={like}
        data-like-button={props.contentId}
      >
        <HeartIcon filled={liked} />
        <span>{liked ? t('likes.liked') : t('likes.like')}</span>
      </button>
      <span className={styles.count} aria-live="polite" data-like-count>
        {t('likes.count', { count })}
      </span>
      {failed ? (
        <span className={styles.error} role="alert">
          {t('likes.error')}
        </span>
      ) : null}
    </div>
  );
}

function HeartIcon(props: { filled: boolean }) {
  return (
    <svg className={styles.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M12 20s-7-4.4-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.6-7 10-7 10z"
        fill={props.filled ? 'currentColor' : 'none'}
        stroke="currentColor"
        strokeWidth="2"
      />
    </svg>
  );
}
