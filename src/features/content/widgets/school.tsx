import { useEffect, useId, useRef, useState } from 'react';
import { sendWithToken } from '../../../client/send.ts';
import { useT } from '../../../i18n/react.tsx';
import { useHydrated } from '../../../render/use-hydrated.ts';
import {
  SCHOOL_VOTE_FORM_PATH,
  SCHOOL_VOTE_PATH,
  type SchoolVoteAnswer,
  voteAnchor,
} from './vote-values.ts';
import styles from './widgets.module.css';

/** A question card that flips to its answer and back. */
export function FlipCard(props: { question: string; answer: string }) {
  const t = useT();
  const id = useId();
  const [flipped, setFlipped] = useState(false);
  // Without script (and until the island runs) both sides show, and there is no button.
  const live = useHydrated();
  return (
    <section
      className={`container ${styles.flipCard} ${live ? styles.flipLive : ''} ${flipped ? styles.flipped : ''}`}
    >
      <div className={styles.flipInner}>
        <div className={styles.flipFace} hidden={live && flipped} id={`${id}q`}>
          <h2>{t('widgets.school.questionHeading')}</h2>
          <p>{props.question}</p>
        </div>
        <div
          className={live ? `${styles.flipFace} ${styles.flipBack}` : styles.flipFace}
          hidden={live && !flipped}
          id={`${id}a`}
        >
          <p>{props.answer}</p>
        </div>
      </div>
      <p hidden={!live}>
        <button
          type="button"
          className={styles.button}
          aria-expanded={flipped}
          aria-controls={`${id}a`}
          onClick={() => setFlipped((f) => !f)}
        >
          {flipped ? t('widgets.school.showQuestion') : t('widgets.school.showAnswer')}
        </button>
      </p>
    </section>
  );
}

export interface SliderProps {
  header?: string;
  slides: { Url: string; IsVideo: boolean; alt: string }[];
}

/** Slides of pictures and videos, one at a time, moved with a 500 ms transition. */
export function Slider(props: SliderProps) {
  const t = useT();
  const id = useId();
  const [index, setIndex] = useState(0);
  // Without script (and until the island runs) every slide is in a list that scrolls sideways,
  // reachable by keyboard; the buttons and the one-at-a-time track come with the script.
  const live = useHydrated();
  const total = props.slides.length;
  const go = (next: number) => setIndex((next + total) % total);
  return (
    <section
      className={`container ${styles.slider}`}
      aria-roledescription="carousel"
      aria-label={props.header ?? t('widgets.school.slides')}
    >
      {props.header ? <h2>{props.header}</h2> : null}
      <div
        className={live ? styles.sliderViewport : styles.sliderScroller}
        data-slider={live ? 'live' : 'list'}
        {...(live
          ? {}
          : {
              role: 'group',
              tabIndex: 0,
              'aria-label': props.header ?? t('widgets.school.slides'),
            })}
      >
        <ul
          className={styles.sliderTrack}
          id={`${id}track`}
          style={live ? { transform: `translateX(-${index * 100}%)` } : undefined}
        >
          {props.slides.map((slide, i) => (
            <li
              key={slide.Url}
              aria-roledescription="slide"
              aria-label={t('widgets.school.slideLabel', { number: String(i + 1) })}
              inert={live && i !== index ? true : undefined}
            >
              {slide.IsVideo ? (
                // biome-ignore lint/a11y/useMediaCaption: the demo videos have no speech
                <video src={slide.Url} controls preload="metadata" aria-label={slide.alt} />
              ) : (
                <img src={slide.Url} alt={slide.alt} loading="lazy" width={1200} height={800} />
              )}
            </li>
          ))}
        </ul>
      </div>
      {live && total > 1 ? (
        <div className={styles.sliderControls}>
          <button
            type="button"
            className={styles.button}
            aria-controls={`${id}track`}
            onClick={() => go(index - 1)}
          >
            {t('widgets.school.previous')}
          </button>
          <span aria-live="polite">
            {t('widgets.school.slideOf', { current: String(index + 1), total: String(total) })}
          </span>
          <button
            type="button"
            className={styles.button}
            aria-controls={`${id}track`}
            onClick={() => go(index + 1)}
          >
            {t('widgets.school.next')}
          </button>
        </div>
      ) : null}
    </section>
  );
}

export interface SchoolVoteProps {
  voteId: string;
  question: string;
  options: { Title: string; Text: string }[];
  /** The page's path: the plain form comes back to it. */
  returnPath: string;
  /** The option the plain form's vote counted (the page was sent back with it). */
  voted?: number;
  /** The plain form's vote failed. */
  failed?: true;
}

type VoteState =
  | { kind: 'choosing' }
  | { kind: 'sending'; option: number }
  | { kind: 'voted'; option: number }
  | { kind: 'error' };

/**
 * The vote (spec shop-and-widgets §4): choosing an option shows its text and hides the options.
 * The server counts one vote per visitor; a visitor who voted before sees the text of their own
 * earlier choice. The options are submit buttons of a plain form: before the script runs, or
 * without it, the press posts the form and the page comes back with the counted choice (or the
 * failure, focused through the address's anchor); with the script, the press sends the vote.
 */
export function SchoolVote(props: SchoolVoteProps) {
  const t = useT();
  const id = useId();
  const [state, setState] = useState<VoteState>(
    props.voted !== undefined
      ? { kind: 'voted', option: props.voted }
      : props.failed
        ? { kind: 'error' }
        : { kind: 'choosing' },
  );
  const result = useRef<HTMLDivElement>(null);
  const choose = async (option: number) => {
    setState({ kind: 'sending', option });
    try {
      const response = await sendWithToken(SCHOOL_VOTE_PATH, { voteId: props.voteId, option });
      if (!response.ok) throw new Error(String(response.status));
      const answer = (await response.json()) as SchoolVoteAnswer;
      setState({ kind: 'voted', option: answer.option });
    } catch {
      setState({ kind: 'error' });
    }
  };
  // A choice made here moves the focus to its answer; one the page came back with does not
  // (the address's anchor has brought it into view).
  const changed = useRef(false);
  useEffect(() => {
    if (!changed.current) {
      changed.current = true;
      return;
    }
    if (state.kind === 'voted' || state.kind === 'error') result.current?.focus();
  }, [state.kind]);
  const chosen = state.kind === 'voted' ? props.options[state.option] : undefined;
  return (
    <section
      className={`container ${styles.vote}`}
      aria-labelledby={`${id}q`}
      id={voteAnchor(props.voteId)}
      tabIndex={-1}
    >
      <h2 id={`${id}q`}>{props.question}</h2>
      {chosen ? (
        <div ref={result} tabIndex={-1} data-vote-result>
          <h3>{chosen.Title}</h3>
          <p>{chosen.Text}</p>
          <p>{t('widgets.school.voted')}</p>
        </div>
      ) : (
        <>
          {state.kind === 'error' ? (
            <div ref={result} tabIndex={-1} role="alert" className={styles.voteError}>
              {t('widgets.school.voteFailed')}
            </div>
          ) : null}
          <form
            method="post"
            action={SCHOOL_VOTE_FORM_PATH}
            className={styles.voteOptions}
            onSubmit={(event) => {
              event.preventDefault();
              const pressed = (event.nativeEvent as SubmitEvent).submitter;
              const option = Number(pressed?.getAttribute('value'));
              if (Number.isInteger(option)) choose(option);
            }}
          >
            <input type="hidden" name="voteId" value={props.voteId} />
            <input type="hidden" name="return" value={props.returnPath} />
            {props.options.map((option, i) => (
              <button
                key={option.Title}
                type="submit"
                name="option"
                value={String(i)}
                className={styles.button}
                disabled={state.kind === 'sending'}
              >
                {option.Title}
              </button>
            ))}
          </form>
        </>
      )}
    </section>
  );
}
