import { useId, useState } from 'react';
import { useLang, useT } from '../../../i18n/react.tsx';
import { Img } from '../../../images/picture.tsx';
import type { ImageDto } from '../image-dto.ts';
import type { MapRegionDto } from './data.server.ts';
import styles from './widgets.module.css';

export interface RegionMapProps {
  header?: string;
  image: ImageDto | null;
  regions: MapRegionDto[];
}

/**
 * The map with numbered region buttons (spec shop-and-widgets §4): a button shows its region's
 * info, the same button again clears it, another button switches to its region.
 */
export function RegionMap(props: RegionMapProps) {
  const t = useT();
  const lang = useLang();
  const id = useId();
  const [selected, setSelected] = useState<number | null>(null);
  const region = props.regions.find((r) => r.number === selected);
  return (
    <section className="container" aria-labelledby={props.header ? `${id}h` : undefined}>
      {props.header ? <h2 id={`${id}h`}>{props.header}</h2> : null}
      <div className={styles.map}>
        <div>
          {props.image ? <Img lang={lang} image={props.image} preset="default" /> : null}
          <div id={`${id}info`} className={styles.mapInfo} aria-live="polite">
            {region ? (
              <>
                <h3>
                  {region.number}. {region.buttonLabel}
                </h3>
                <p>
                  <strong>{region.buttonRegion}</strong>
                </p>
                <p>{region.buttonInfo}</p>
              </>
            ) : (
              <p>{t('widgets.map.choose')}</p>
            )}
          </div>
        </div>
        <ul className={styles.mapButtons} aria-label={t('widgets.map.regions')}>
          {props.regions.map((r) => (
            <li key={r.number}>
              <button
                type="button"
                className={styles.mapButton}
                aria-expanded={selected === r.number}
                aria-controls={`${id}info`}
                onClick={() => setSelected((prev) => (prev === r.number ? null : r.number))}
              >
                <span className={styles.mapNumber}>{r.number}</span>
                <span>
                  {r.buttonLabel}
                  <br />
                  <small>{r.buttonRegion}</small>
                </span>
              </button>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
