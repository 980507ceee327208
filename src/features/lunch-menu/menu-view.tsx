import { useT } from '../../i18n/react.tsx';
import styles from './lunch-menu.module.css';
import { DAY_NAME_KEYS, type MenuCard, type MenuWeek, WEEKDAYS } from './values.ts';

/** One dish: its picture and name, a link to the recipe. */
export function CardView({ card }: { card: MenuCard }) {
  return (
    <a className={styles.cardLink} href={card.link}>
      {card.image ? (
        <img
          className={styles.cardImage}
          src={card.image}
          alt=""
          width={800}
          height={450}
          loading="lazy"
          decoding="async"
        />
      ) : (
        <span className={styles.cardImage} />
      )}
      <span className={styles.cardHeader}>{card.header}</span>
    </a>
  );
}

/**
 * The menu to read and print: per week its heading, text and background, and Monday to Friday
 * with their dishes. In print, each week is one A4 page (lunch-menu.module.css).
 */
export function MenuView({ weeks }: { weeks: MenuWeek[] }) {
  const t = useT();
  return (
    <div className={styles.weeks}>
      {weeks.map((week) => (
        <article
          key={`${week.year}-${week.week}`}
          className={styles.week}
          data-background={week.background}
          aria-labelledby={`lunch-week-${week.year}-${week.week}`}
        >
          <header className={styles.weekHeader}>
            <p className={styles.weekNumber}>{t('lunchMenu.week', { week: week.week })}</p>
            <h2 id={`lunch-week-${week.year}-${week.week}`} className={styles.weekHeading}>
              {week.heading || t('lunchMenu.week', { week: week.week })}
            </h2>
            {week.text ? <p className={styles.weekText}>{week.text}</p> : null}
          </header>
          <div className={styles.days}>
            {WEEKDAYS.map((day) => (
              <section key={day} className={styles.day}>
                <h3 className={styles.dayName}>{t(DAY_NAME_KEYS[day])}</h3>
                {week[day].length > 0 ? (
                  <ul className={styles.cards}>
                    {week[day].map((card, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: a day may hold the same dish twice
                      <li key={`${card.link}-${i}`} className={styles.card}>
                        <CardView card={card} />
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className={styles.empty}>{t('lunchMenu.emptyDay')}</p>
                )}
              </section>
            ))}
          </div>
        </article>
      ))}
    </div>
  );
}
