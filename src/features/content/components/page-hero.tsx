import type { ReactNode } from 'react';
import styles from '../home-page.module.css';

/** A page's heading and lead on the brand's soft band: the home page's, and the error pages'. */
export function PageHero(props: {
  title: string;
  lead: string;
  /** Kept for screen readers only (a hero carousel shows the page's picture instead). */
  hidden?: boolean;
  children?: ReactNode;
}) {
  return (
    <section className={props.hidden ? 'visually-hidden' : styles.hero}>
      <div className="container">
        <h1 className={styles.title}>{props.title}</h1>
        <p className={styles.lead}>{props.lead}</p>
        {props.children}
      </div>
    </section>
  );
}
