import { Island } from '../../../render/island.server.tsx';
import { usePage } from '../../../render/page-context.tsx';
import { RichText } from '../../../render/rich-text.server.tsx';
import { langPrefix, localLink } from '../../../sites/resolve.ts';
import { FormBlock } from '../../forms/index.server.ts';
import { CampaignBlock, NewsReleasesBlock } from '../../subscriptions/index.server.ts';
import type { Block } from '../blocks.ts';
import { toCardDto } from '../card-grid/cards.ts';
import { ImageCarouselBlock } from '../carousel/image-carousel-block.tsx';
import type { ImageDto } from '../image-dto.ts';
import type { WidgetData } from '../widgets/data.server.ts';
import { WidgetBlock, widgetBlockImageIds } from '../widgets/widget-blocks.tsx';
import { offersBuying } from './card-buy-part.tsx';
import { CardGrid } from './card-grid.tsx';
import styles from './content.module.css';
import { Hero } from './hero.tsx';

/** Image ids the blocks refer to, so a page loads them in one query. */
export function blockImageIds(blocks: Block[]): number[] {
  const ids: number[] = [];
  for (const block of blocks) {
    if (block.type === 'hero-carousel' || block.type === 'image-carousel')
      ids.push(...block.slides.map((s) => s.imageId));
    if (
      block.type === 'card-grid' ||
      block.type === 'brand-cards' ||
      block.type === 'card-carousel' ||
      block.type === 'brand-logo-carousel'
    ) {
      for (const card of block.cards) {
        if (card.imageId) ids.push(card.imageId);
        if ('profileImageId' in card && card.profileImageId) ids.push(card.profileImageId);
      }
    }
    ids.push(...widgetBlockImageIds(block));
  }
  return ids;
}

export function Blocks(props: {
  blocks: Block[];
  images: Map<number, ImageDto>;
  /** What the page's widget blocks read from the database (`loadWidgetData`). */
  widgets?: WidgetData;
  /** The content id of the page the blocks are on (`page-12`). */
  contentId?: string | undefined;
}) {
  const { site, lang } = usePage();
  // Stored links are paths inside the site without the language prefix (decision 007).
  const linkPrefix = langPrefix(site, lang);
  return (
    <>
      {props.blocks.map((block, index) => {
        const key = `${block.type}-${index}`;
        switch (block.type) {
          case 'hero-carousel':
            return <Hero key={key} slides={block.slides} images={props.images} />;
          case 'image-carousel':
            return <ImageCarouselBlock key={key} block={block} images={props.images} />;
          case 'card-grid':
            return (
              <CardGrid
                key={key}
                header={block.header}
                columns={block.columns}
                cardType={block.cardType}
                cards={block.cards}
                images={props.images}
                linkPrefix={linkPrefix}
                dropdown={
                  block.dropdownItems
                    ? { label: block.dropdownLabel, items: block.dropdownItems }
                    : undefined
                }
                expandable
              />
            );
          case 'brand-cards':
            return (
              <CardGrid
                key={key}
                header={block.header}
                cards={block.cards.map((c) => ({ ...c, type: 'headerImageSquare' as const }))}
                images={props.images}
                linkPrefix={linkPrefix}
                expandable
              />
            );
          case 'card-carousel':
          case 'brand-logo-carousel':
            return (
              <CarouselBlock
                key={key}
                block={block}
                images={props.images}
                linkPrefix={linkPrefix}
              />
            );
          case 'rich-text':
            return (
              <div key={key} className={`container ${styles.blockSpacing}`}>
                <RichText html={block.html} className={styles.prose} />
              </div>
            );
          case 'form':
            return (
              <FormBlock
                key={key}
                form={block.form}
                successPage={block.successPage}
                successMessage={block.successMessage}
                errorMessage={block.errorMessage}
                contentId={block.contentId}
                pageContentId={props.contentId}
              />
            );
          case 'campaign':
            return <CampaignBlock key={key} campaignId={block.campaignId} title={block.title} />;
          case 'news-releases':
            return <NewsReleasesBlock key={key} hash={block.hash} />;
          default:
            return (
              <WidgetBlock
                key={key}
                block={block}
                images={props.images}
                data={props.widgets ?? {}}
              />
            );
        }
      })}
    </>
  );
}

/** A carousel of cards (joined with the buy control where it offers products) or of logos. */
function CarouselBlock(props: {
  block: Extract<Block, { type: 'card-carousel' | 'brand-logo-carousel' }>;
  images: Map<number, ImageDto>;
  linkPrefix: string;
}) {
  const { lang } = usePage();
  const { block } = props;
  switch (block.type) {
    case 'card-carousel': {
      const carousel = {
        ...(block.header ? { header: block.header } : {}),
        cardType: block.cardType,
        cards: block.cards.map((card) => toCardDto(card, props.images, props.linkPrefix)),
        ...(block.cardsPerView === undefined ? {} : { cardsPerView: block.cardsPerView }),
      };
      // Shop products for sale: the carousel joined with the shop's buy control.
      return offersBuying(carousel.cards) ? (
        <Island name="product-card-carousel" lang={lang} hydrate="visible" props={carousel} />
      ) : (
        <Island name="card-carousel" lang={lang} hydrate="visible" props={carousel} />
      );
    }
    case 'brand-logo-carousel':
      return (
        <Island
          name="brand-logo-carousel"
          lang={lang}
          hydrate="visible"
          props={{
            ...(block.header ? { header: block.header } : {}),
            logos: block.cards.map((card) => {
              const image = card.imageId ? props.images.get(card.imageId) : undefined;
              return {
                link: localLink(card.link, props.linkPrefix),
                header: card.header,
                ...(image ? { image } : {}),
              };
            }),
            ...(block.autoplaySeconds ? { autoplaySeconds: block.autoplaySeconds } : {}),
          }}
        />
      );
  }
}
