import { useEffect, useRef, useState } from 'react';
import { Button, Dialog, DialogTrigger, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useT } from '../../../i18n/react.tsx';
import styles from './widgets.module.css';

const reducedMotion = () =>
  typeof window !== 'undefined' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

export interface HeroVideoProps {
  src: string;
  poster?: string;
  text: string;
}

/**
 * A muted, looping hero video with a pause/play button (WCAG 2.2.2). The markup has no
 * `autoplay`: the island starts it, unless the visitor prefers reduced motion.
 */
export function HeroVideo(props: HeroVideoProps) {
  const t = useT();
  const video = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState(false);
  useEffect(() => {
    const element = video.current;
    if (!element || reducedMotion()) return;
    element.play().then(
      () => setPlaying(true),
      () => setPlaying(false),
    );
  }, []);
  const toggle = () => {
    const element = video.current;
    if (!element) return;
    if (element.paused) {
      element.play().then(
        () => setPlaying(true),
        () => setPlaying(false),
      );
    } else {
      element.pause();
      setPlaying(false);
    }
  };
  return (
    <div className={`container ${styles.heroVideo}`}>
      <video
        ref={video}
        src={props.src}
        poster={props.poster}
        muted
        loop
        playsInline
        preload="metadata"
        aria-label={props.text}
        data-playing={playing ? '' : undefined}
      />
      <button
        type="button"
        className={`${styles.button} ${styles.videoControl}`}
        onClick={toggle}
        aria-pressed={!playing}
      >
        {playing ? t('widgets.video.pause') : t('widgets.video.play')}
      </button>
    </div>
  );
}

export interface VideoModalProps {
  src: string;
  title: string;
  poster?: string;
}

/** A button with the video's picture that opens the video in a dialog (react-aria). */
export function VideoModal(props: VideoModalProps) {
  const t = useT();
  return (
    <div className="container">
      <DialogTrigger>
        <Button className={styles.button}>{t('widgets.video.open', { title: props.title })}</Button>
        <ModalOverlay className={styles.dialogOverlay} isDismissable>
          <Modal>
            <Dialog className={styles.dialog}>
              {({ close }) => (
                <>
                  <div className={styles.dialogHeader}>
                    <Heading slot="title">{props.title}</Heading>
                    <Button className={`${styles.button} ${styles.buttonQuiet}`} onPress={close}>
                      {t('widgets.video.close')}
                    </Button>
                  </div>
                  {/* biome-ignore lint/a11y/useMediaCaption: the demo videos have no speech */}
                  <video
                    src={props.src}
                    poster={props.poster}
                    controls
                    autoPlay={!reducedMotion()}
                  />
                </>
              )}
            </Dialog>
          </Modal>
        </ModalOverlay>
      </DialogTrigger>
    </div>
  );
}

/** Spec shop-and-widgets §4 and §9: 2 s from 0 to the value, about 60 steps per second. */
export const COUNT_DURATION_MS = 2000;
export const COUNT_STEPS_PER_SECOND = 60;

/** The value shown at `elapsed` ms of the count: linear, whole numbers, the value at the end. */
export function countAt(value: number, elapsed: number): number {
  if (elapsed >= COUNT_DURATION_MS) return value;
  return Math.floor((value * Math.max(0, elapsed)) / COUNT_DURATION_MS);
}

export interface NumberAnimationProps {
  header?: string;
  items: { value: number; label: string; suffix?: string }[];
}

/**
 * Figures that count up from 0 when the island hydrates (it hydrates when visible). The HTML
 * holds the real figures; visitors who prefer reduced motion see them at once. Screen readers
 * read the real figure, never the count.
 */
export function NumberAnimation(props: NumberAnimationProps) {
  const [elapsed, setElapsed] = useState<number | null>(null);
  useEffect(() => {
    if (reducedMotion()) return;
    const started = performance.now();
    setElapsed(0);
    const timer = window.setInterval(() => {
      const now = performance.now() - started;
      setElapsed(now);
      if (now >= COUNT_DURATION_MS) window.clearInterval(timer);
    }, 1000 / COUNT_STEPS_PER_SECOND);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <section className="container">
      {props.header ? <h2>{props.header}</h2> : null}
      <ul className={styles.counters}>
        {props.items.map((item) => {
          const shown = elapsed === null ? item.value : countAt(item.value, elapsed);
          return (
            <li key={item.label}>
              <span className={styles.counterValue} aria-hidden="true" data-counter={item.value}>
                {String(shown)}
                {item.suffix ?? ''}
              </span>
              <span className="visually-hidden">
                {item.value}
                {item.suffix ?? ''}
              </span>
              <span>{item.label}</span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
