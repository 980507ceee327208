import { useLang, useT } from '../../../i18n/react.tsx';
import { NarrowCropImg } from '../../../images/picture.tsx';
import styles from './carousel.module.css';
import type { HeroCarouselSlide } from './hero-carousel.tsx';

const alignment = {
  Center: styles.alignCenter,
  Left: styles.alignLeft,
  Right: styles.alignRight,
} as const;

/** One slide of the hero carousel: its picture, its text and its link. */
export function HeroSlide(props: { slide: HeroCarouselSlide; first: boolean }) {
  const t = useT();
  const lang = useLang();
  const { slide } = props;
  return (
    <>
      {slide.image ? (
        <NarrowCropImg
          lang={lang}
          image={slide.image}
          preset="hero"
          narrowPreset="hero-narrow"
          className={styles.heroImage}
          eager={props.first}
          decorative
        />
      ) : null}
      <div className={`${styles.heroText} ${alignment[slide.textAlignment]}`}>
        <div className={styles.heroBox}>
          <div
            // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server (hero.tsx)
            dangerouslySetInnerHTML={{ __html: slide.html }}
          />
          {slide.link ? (
            <a className={styles.heroLink} href={slide.link}>
              {t('carousel.readMore')}
            </a>
          ) : null}
        </div>
      </div>
    </>
  );
}
