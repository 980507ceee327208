import type { RefObject } from 'react';
import { useT } from '../../../i18n/react.tsx';

/** Icons of the carousel buttons; decorative, the buttons carry the names. */
const common = {
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2.5,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
} as const;

export function ChevronIcon(props: { direction: 'left' | 'right' }) {
  return (
    <svg aria-hidden="true" focusable="false" {...common}>
      <path d={props.direction === 'left' ? 'M15 5l-7 7 7 7' : 'M9 5l7 7-7 7'} />
    </svg>
  );
}

export function PauseIcon() {
  return (
    <svg aria-hidden="true" focusable="false" {...common}>
      <path d="M8 5v14M16 5v14" />
    </svg>
  );
}

export function PlayIcon() {
  return (
    <svg aria-hidden="true" focusable="false" {...common} fill="currentColor">
      <path d="M7 5l12 7-12 7z" />
    </svg>
  );
}

/** A carousel's previous or next button: a chevron named by its label, moving the track it controls. */
export function StepButton(props: {
  direction: 'left' | 'right';
  label: string;
  controls: string;
  className: string;
  onPress(): void;
}) {
  return (
    <button
      type="button"
      className={props.className}
      aria-controls={props.controls}
      aria-label={props.label}
      onClick={props.onPress}
    >
      <ChevronIcon direction={props.direction} />
    </button>
  );
}

/**
 * A carousel's pause button (WCAG 2.2.2): stops and restarts the rotation of the track it
 * controls, its icon and name saying what a press does.
 */
export function PlayPauseButton(props: {
  playing: boolean;
  controls: string;
  className: string | undefined;
  buttonRef: RefObject<HTMLButtonElement | null>;
  onPress(): void;
}) {
  const t = useT();
  return (
    <button
      ref={props.buttonRef}
      type="button"
      className={props.className}
      aria-controls={props.controls}
      onClick={props.onPress}
    >
      {props.playing ? <PauseIcon /> : <PlayIcon />}
      {props.playing ? t('carousel.pause') : t('carousel.play')}
    </button>
  );
}
