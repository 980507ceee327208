import { usePage } from '../../../render/page-context.tsx';
import { RichText } from '../../../render/rich-text.server.tsx';
import type { HeroSlide } from '../blocks.ts';
import type { ImageDto } from '../content.server.ts';
import { Img } from '../images/picture.tsx';
import styles from './content.module.css';

/**
 * The hero carousel as the server renders it: every slide in a horizontal strip that scrolls and
 * snaps without JavaScript. The first slide's image loads eagerly; the others lazily.
 */
export function Hero(props: { slides: HeroSlide[]; images: Map<number, ImageDto> }) {
  const { t, lang } = usePage();
  return (
    <section className={styles.hero} aria-roledescription="carousel" aria-label={t('hero.label')}>
      {/* Focusable, so the strip scrolls by keyboard too until the carousel's buttons take over. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
      <ul className={styles.heroTrack} tabIndex={0}>
        {props.slides.map((slide, index) => {
          const image = props.images.get(slide.imageId);
          return (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: a static list rendered once on the server
              key={`${slide.imageId}-${index}`}
              className={`${styles.heroSlide} ${slide.darken ? styles.heroDarken : ''}`}
              aria-roledescription="slide"
              aria-label={t('hero.slide', { index: index + 1, count: props.slides.length })}
            >
              {image ? (
                <Img
                  lang={lang}
                  image={image}
                  preset="hero"
                  className={styles.heroImage}
                  eager={index === 0}
                  decorative
                />
              ) : null}
              <div className={`${styles.heroText} ${styles[`align${slide.textAlignment}`] ?? ''}`}>
                <RichText html={slide.text} />
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
