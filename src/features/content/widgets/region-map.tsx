import { useId, useState } from 'react';
import { useLang, useT } from '../../../i18n/react.tsx';
import { Img } from '../../../images/picture.tsx';
import type { ImageDto } from '../image-dto.ts';
import type { MapRegionDto } from './data.server.ts';
import { MAP_OUTLINES, MAP_VIEW, onMap, project } from './map-outline.ts';
import styles from './widgets.module.css';

export interface RegionMapProps {
  header?: string;
  image: ImageDto | null;
  regions: MapRegionDto[];
  /** Where the numbered regions lie, for the drawn map. */
  places?: { number: number; lat: number; lon: number }[];
}

/**
 * The map drawn from the data when no image is given: the countries' outlines and a numbered
 * marker per region with a place; the chosen one stands out. Its text alternative names every
 * marked region (the buttons below say the same, and more).
 */
function DrawnMap(props: {
  regions: MapRegionDto[];
  places: RegionMapProps['places'];
  selected: number | null;
  id: string;
}) {
  const t = useT();
  const marked = props.regions.flatMap((region) => {
    const place = props.places?.find((p) => p.number === region.number);
    return place && onMap(place.lat, place.lon)
      ? [{ region, ...project(place.lat, place.lon) }]
      : [];
  });
  if (marked.length === 0) return null;
  return (
    <svg
      className={styles.mapPicture}
      viewBox={`0 0 ${MAP_VIEW.width} ${MAP_VIEW.height}`}
      role="img"
      aria-labelledby={`${props.id}mt ${props.id}md`}
      data-map-picture
    >
      <title id={`${props.id}mt`}>{t('widgets.map.picture')}</title>
      <desc id={`${props.id}md`}>
        {marked
          .map((m) => `${m.region.number}. ${m.region.buttonLabel}, ${m.region.buttonRegion}`)
          .join('; ')}
      </desc>
      {MAP_OUTLINES.map((d) => (
        <path key={d} d={d} className={styles.mapLand} />
      ))}
      {marked.map((m) => (
        <g
          key={m.region.number}
          className={props.selected === m.region.number ? styles.mapMarkerChosen : styles.mapMarker}
          data-marker={m.region.number}
        >
          <circle cx={m.x} cy={m.y} r={props.selected === m.region.number ? 13 : 10} />
          <text x={m.x} y={m.y} dy="0.35em" textAnchor="middle">
            {m.region.number}
          </text>
        </g>
      ))}
    </svg>
  );
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
          {props.image ? (
            <Img lang={lang} image={props.image} preset="default" />
          ) : (
            <DrawnMap regions={props.regions} places={props.places} selected={selected} id={id} />
          )}
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
