import type { ReactNode } from 'react';
import { formatDate } from '../../../i18n/format.ts';
import { Img } from '../../../images/picture.tsx';
import { imageUrl } from '../../../images/presets.ts';
import { Island } from '../../../render/island.server.tsx';
import { usePage } from '../../../render/page-context.tsx';
import type { Block } from '../blocks.ts';
import { Pagination } from '../components/pagination.tsx';
import type { ImageDto } from '../image-dto.ts';
import type { WidgetData } from './data.server.ts';
import styles from './widgets.module.css';

type Images = Map<number, ImageDto>;

/** The school vote's start: as the plain form's answer left it, when it was for this vote. */
function voteOutcomeProps(
  outcome: WidgetData['voteOutcome'],
  voteId: string,
  options: number,
): { voted?: number; failed?: true } {
  if (!outcome || outcome.voteId !== voteId) return {};
  if ('failed' in outcome) return { failed: true };
  return outcome.option < options ? { voted: outcome.option } : {};
}

/** Image ids the widget blocks show themselves. */
export function widgetBlockImageIds(block: Block): number[] {
  switch (block.type) {
    case 'map':
    case 'video-modal':
    case 'school-header':
      return block.imageId ? [block.imageId] : [];
    case 'hero-video':
    case 'school-video':
      return block.posterImageId ? [block.posterImageId] : [];
    default:
      return [];
  }
}

const poster = (images: Images, id: number | undefined) => {
  const image = id ? images.get(id) : undefined;
  return image ? imageUrl(image, 'hero') : undefined;
};

/** The open positions, a page at a time with real links to the other pages. */
function Jobs(props: { header?: string | undefined; data: WidgetData['jobs'] }) {
  const { t, lang, path } = usePage();
  const data = props.data;
  if (!data) return null;
  const pages = Math.max(1, Math.ceil(data.total / data.pageSize));
  return (
    <section className={`container ${styles.blockSpacing}`} aria-labelledby="jobs-heading">
      <h2 id="jobs-heading">{props.header ?? t('widgets.jobs.heading')}</h2>
      <p>{t('widgets.jobs.count', { count: String(data.total) })}</p>
      {data.items.length === 0 ? (
        <p>{t('widgets.jobs.none')}</p>
      ) : (
        <ul className={styles.jobs} data-jobs>
          {data.items.map((job) => (
            <li key={job.url} className={styles.job}>
              <h3>
                <a href={job.url}>{job.title}</a>
              </h3>
              <p className={styles.jobMeta}>
                {t('widgets.jobs.city')}: {job.city}
              </p>
              <p className={styles.jobMeta}>
                {t('widgets.jobs.applicationPeriodEnd')}:{' '}
                <time dateTime={job.applicationPeriodEnd}>
                  {formatDate(job.applicationPeriodEnd, lang)}
                </time>
              </p>
            </li>
          ))}
        </ul>
      )}
      <Pagination page={data.page} pages={pages} basePath={path.split('?')[0] ?? path} />
    </section>
  );
}

/** The pages of the section as tabs: 1 column small, 3 medium, 4 larger. */
function PageTabs(props: { tabs: WidgetData['tabs'] }) {
  const { t } = usePage();
  if (!props.tabs?.length) return null;
  return (
    <nav className="container" aria-label={t('widgets.tabs.label')}>
      <ul className={styles.tabs}>
        {props.tabs.map((tab) => (
          <li key={tab.FriendlyUrl}>
            <a
              className={styles.tab}
              href={tab.FriendlyUrl}
              aria-current={tab.Active ? 'page' : undefined}
            >
              {tab.Name}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * A widget block of issue 16, or undefined for another block type. Interactive ones are islands
 * that hydrate when seen or idle; their server render is the content itself.
 */
export function WidgetBlock(props: {
  block: Block;
  images: Images;
  data: WidgetData;
}): ReactNode | undefined {
  const { lang } = usePage();
  const { block, images, data } = props;
  switch (block.type) {
    case 'jobs':
      return <Jobs header={block.header} data={data.jobs} />;
    case 'timeline':
      return data.timeline?.length ? (
        <Island
          name="timeline"
          lang={lang}
          hydrate="visible"
          props={{
            ...(block.header ? { header: block.header } : {}),
            window: block.window,
            years: data.timeline.map((y) => ({
              year: y.year,
              title: y.title,
              text: y.text,
              image: (y.imageId ? images.get(y.imageId) : undefined) ?? null,
            })),
          }}
        />
      ) : null;
    case 'map':
      return <MapWidget block={block} images={images} regions={data.mapRegions} />;
    case 'expandable-list':
      return (
        <Island
          name="expandable-list"
          lang={lang}
          hydrate="idle"
          props={{ ...(block.header ? { header: block.header } : {}), items: block.items }}
        />
      );
    case 'page-tabs':
      return <PageTabs tabs={data.tabs} />;
    case 'hero-video': {
      const posterUrl = poster(images, block.posterImageId);
      return (
        <Island
          name="hero-video"
          lang={lang}
          hydrate="idle"
          props={{ src: block.src, text: block.text, ...(posterUrl ? { poster: posterUrl } : {}) }}
        />
      );
    }
    case 'video-modal': {
      const posterUrl = poster(images, block.imageId);
      return (
        <Island
          name="video-modal"
          lang={lang}
          hydrate="idle"
          props={{
            src: block.src,
            title: block.title,
            ...(posterUrl ? { poster: posterUrl } : {}),
          }}
        />
      );
    }
    case 'number-animation':
      return (
        <Island
          name="number-animation"
          lang={lang}
          hydrate="visible"
          props={{ ...(block.header ? { header: block.header } : {}), items: block.items }}
        />
      );
    case 'flip-card':
      return (
        <Island
          name="flip-card"
          lang={lang}
          hydrate="idle"
          props={{ question: block.question, answer: block.answer }}
        />
      );
    case 'slider':
      return (
        <Island
          name="slider"
          lang={lang}
          hydrate="visible"
          props={{ ...(block.header ? { header: block.header } : {}), slides: block.slides }}
        />
      );
    case 'school-header':
    case 'school-vote':
    case 'school-video':
    case 'school-materials':
      return <SchoolBlock block={block} images={images} data={data} />;
    default:
      return undefined;
  }
}

/** The region map (an island), with the regions as a plain list where script does not run. */
function MapWidget(props: {
  block: Extract<Block, { type: 'map' }>;
  images: Images;
  regions: WidgetData['mapRegions'];
}) {
  const { lang } = usePage();
  return props.regions?.length ? (
    <>
      <Island
        name="region-map"
        lang={lang}
        hydrate="idle"
        props={{
          ...(props.block.header ? { header: props.block.header } : {}),
          image: (props.block.imageId ? props.images.get(props.block.imageId) : undefined) ?? null,
          regions: props.regions,
          ...(props.block.places ? { places: props.block.places } : {}),
        }}
      />
      <noscript>
        <div className="container">
          <ol className={styles.mapRegions}>
            {props.regions.map((r) => (
              <li key={r.number}>
                <strong>
                  {r.number}. {r.buttonLabel}
                </strong>{' '}
                ({r.buttonRegion}): {r.buttonInfo}
              </li>
            ))}
          </ol>
        </div>
      </noscript>
    </>
  ) : null;
}

/** The school pages' blocks: their header, the vote, the video and the materials. */
function SchoolBlock(props: {
  block: Extract<
    Block,
    { type: 'school-header' | 'school-vote' | 'school-video' | 'school-materials' }
  >;
  images: Images;
  data: WidgetData;
}) {
  const { lang, t, path: pagePath } = usePage();
  const { block, images, data } = props;
  switch (block.type) {
    case 'school-header': {
      const image = block.imageId ? images.get(block.imageId) : undefined;
      return (
        <header className={`container ${styles.blockSpacing} ${styles.map}`}>
          <div>
            <h2>{block.header}</h2>
            {block.text ? <p>{block.text}</p> : null}
          </div>
          {image ? <Img lang={lang} image={image} preset="card-wide" /> : null}
        </header>
      );
    }
    case 'school-vote':
      return (
        <Island
          name="school-vote"
          lang={lang}
          hydrate="idle"
          props={{
            voteId: block.voteId,
            question: block.question,
            options: block.options,
            ...voteOutcomeProps(data.voteOutcome, block.voteId, block.options.length),
            returnPath: pagePath,
          }}
        />
      );
    case 'school-video': {
      const posterUrl = poster(images, block.posterImageId);
      return (
        <section className={`container ${styles.blockSpacing}`}>
          <h2>{block.title}</h2>
          {/* biome-ignore lint/a11y/useMediaCaption: the demo videos have no speech */}
          <video
            src={block.src}
            poster={posterUrl}
            controls
            preload="metadata"
            className={styles.schoolVideo}
          />
        </section>
      );
    }
    case 'school-materials':
      return data.schoolMaterials?.length ? (
        <section className={`container ${styles.blockSpacing}`}>
          <h2>{block.header ?? t('widgets.school.materials')}</h2>
          <ul className={styles.materials}>
            {data.schoolMaterials.map((m) => (
              <li key={m.Url}>
                <a href={m.Url}>{m.Material}</a>
              </li>
            ))}
          </ul>
        </section>
      ) : null;
  }
}
