import { RichText } from '../../../render/rich-text.server.tsx';
import { FormBlock } from '../../forms/index.ts';
import type { Block } from '../blocks.ts';
import { ImageCarouselBlock } from '../carousel/image-carousel-block.tsx';
import type { ImageDto } from '../content.server.ts';
import { CardGrid } from './card-grid.tsx';
import styles from './content.module.css';
import { Hero } from './hero.tsx';

/** Image ids the blocks refer to, so a page loads them in one query. */
export function blockImageIds(blocks: Block[]): number[] {
  const ids: number[] = [];
  for (const block of blocks) {
    if (block.type === 'hero-carousel' || block.type === 'image-carousel')
      ids.push(...block.slides.map((s) => s.imageId));
    if (block.type === 'card-grid' || block.type === 'brand-cards') {
      for (const card of block.cards) if (card.imageId) ids.push(card.imageId);
    }
  }
  return ids;
}

export function Blocks(props: { blocks: Block[]; images: Map<number, ImageDto> }) {
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
                cards={block.cards}
                images={props.images}
              />
            );
          case 'brand-cards':
            return (
              <CardGrid
                key={key}
                header={block.header}
                cards={block.cards.map((c) => ({ ...c, type: 'headerImageSquare' as const }))}
                images={props.images}
              />
            );
          case 'rich-text':
            return (
              <div key={key} className={`container ${styles.blockSpacing}`}>
                <RichText html={block.html} className={styles.prose} />
              </div>
            );
          case 'form':
            return <FormBlock key={key} form={block.form} successPage={block.successPage} />;
          default:
            return null;
        }
      })}
    </>
  );
}
