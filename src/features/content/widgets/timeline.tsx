import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useLang, useT } from '../../../i18n/react.tsx';
import { Img } from '../../../images/picture.tsx';
import type { ImageDto } from '../image-dto.ts';
import styles from './widgets.module.css';

export interface TimelineProps {
  header?: string;
  /** How many years the window shows around the current one. */
  window: number;
  years: { year: number; title: string; text: string; image: ImageDto | null }[];
}

/** The first index of a window of `size` entries around `index`, kept inside the list. */
export function windowStart(index: number, size: number, length: number): number {
  const start = index - Math.floor(size / 2);
  return Math.max(0, Math.min(start, length - size));
}

/** The year a location hash names ('#1968' → 1968), if the timeline has it. */
function yearOfHash(hash: string, years: number[]): number | undefined {
  const year = Number(decodeURIComponent(hash.replace(/^#/, '')));
  return years.includes(year) ? year : undefined;
}

/**
 * The history timeline (spec shop-and-widgets §2): every year has its anchor (`#{year}`, the
 * element named `year_{year}`). The server renders every year, so anchors and reading work
 * without script; the island shows a window of years around the current one (the year in the
 * address, else the latest) with links to each year in the window, earlier and later buttons,
 * and arrow keys, Home and End in the year links.
 */
export function Timeline(props: TimelineProps) {
  const t = useT();
  const headingId = useId();
  const years = props.years.map((y) => y.year);
  const size = Math.min(props.window, years.length);
  const [current, setCurrent] = useYearOfHash(years);
  const links = useRef(new Map<number, HTMLAnchorElement>());
  const focusYear = useRef<number | null>(null);

  useEffect(() => {
    if (focusYear.current === null) return;
    links.current.get(focusYear.current)?.focus();
    focusYear.current = null;
  });

  const index = current === null ? -1 : years.indexOf(current);
  const start = index < 0 ? 0 : windowStart(index, size, years.length);
  const shown = index < 0 ? years : years.slice(start, start + size);
  const select = (year: number | undefined, focus: boolean) => {
    if (year === undefined) return;
    setCurrent(year);
    if (focus) focusYear.current = year;
    window.history.replaceState(null, '', `#${year}`);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLAnchorElement>, year: number) => {
    const i = years.indexOf(year);
    const target = {
      ArrowLeft: years[i - 1],
      ArrowRight: years[i + 1],
      Home: years[0],
      End: years[years.length - 1],
    }[event.key];
    if (target === undefined && !['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key))
      return;
    event.preventDefault();
    select(target ?? year, true);
  };
  const first = shown[0];
  const last = shown[shown.length - 1];
  return (
    <section className="container" aria-labelledby={props.header ? headingId : undefined}>
      {props.header ? <h2 id={headingId}>{props.header}</h2> : null}
      <nav aria-label={t('widgets.timeline.years')} className={styles.timelineNav}>
        <button
          type="button"
          className={`${styles.button} ${styles.buttonQuiet}`}
          onClick={() => select(years[Math.max(0, start - 1)], false)}
          disabled={current === null || start === 0}
          aria-label={t('widgets.timeline.earlier')}
        >
          ‹
        </button>
        <ul className={styles.yearLinks}>
          {shown.map((year) => (
            <li key={year}>
              <a
                href={`#${year}`}
                className={styles.yearLink}
                aria-current={year === current ? 'true' : undefined}
                ref={(el) => {
                  if (el) links.current.set(year, el);
                  else links.current.delete(year);
                }}
                onClick={(event) => {
                  event.preventDefault();
                  select(year, false);
                  document.getElementById(String(year))?.scrollIntoView();
                }}
                onKeyDown={(event) => onKeyDown(event, year)}
              >
                {year}
              </a>
            </li>
          ))}
        </ul>
        <button
          type="button"
          className={`${styles.button} ${styles.buttonQuiet}`}
          onClick={() => select(years[Math.min(years.length - 1, start + size)], false)}
          disabled={current === null || start + size >= years.length}
          aria-label={t('widgets.timeline.later')}
        >
          ›
        </button>
      </nav>
      {first !== undefined && last !== undefined && current !== null ? (
        <p aria-live="polite" className="visually-hidden">
          {t('widgets.timeline.showing', { from: String(first), to: String(last) })}
        </p>
      ) : null}
      <ol className={styles.timeline}>
        {props.years
          .filter((y) => shown.includes(y.year))
          .map((y) => (
            <TimelineYear key={y.year} year={y} />
          ))}
      </ol>
    </section>
  );
}

/**
 * The year the timeline shows: the one in the address (followed as it changes), else the latest;
 * null until the island runs, so the server shows every year. A year in the address on arrival
 * is scrolled to.
 */
function useYearOfHash(years: number[]) {
  const [current, setCurrent] = useState<number | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the years are the island's props, fixed
  useEffect(() => {
    const fromHash = () => {
      const year = yearOfHash(window.location.hash, years);
      setCurrent((prev) => year ?? prev ?? years[years.length - 1] ?? null);
      return year;
    };
    const year = fromHash();
    if (year !== undefined) document.getElementById(String(year))?.scrollIntoView();
    window.addEventListener('hashchange', fromHash);
    return () => window.removeEventListener('hashchange', fromHash);
  }, []);
  return [current, setCurrent] as const;
}

/** One year: its anchor, picture, number, title and text. */
function TimelineYear(props: { year: TimelineProps['years'][number] }) {
  const lang = useLang();
  const y = props.year;
  return (
    <li id={String(y.year)} data-name={`year_${y.year}`} className={styles.year}>
      <div>{y.image ? <Img lang={lang} image={y.image} preset="card-wide" /> : null}</div>
      <div>
        <p className={styles.yearNumber}>{y.year}</p>
        <h3>{y.title}</h3>
        <p>{y.text}</p>
      </div>
    </li>
  );
}
