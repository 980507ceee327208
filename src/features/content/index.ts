/** Browser-safe parts of the content feature: the content model's blocks and cards. */

export * from './admin/schemas.ts';
export { type Block, type Card, type CardType, cardTypes, pageBlocks } from './blocks.ts';
/** What an `lkProductCard` hands the shop's buy part (the shop renders it). */
export type { CardBuyProps } from './components/card-buy-part.tsx';
/** Content ids (`recipe-51`, `product-51`, `page-12`, `news-7`): decision 105. */
export {
  CONTENT_KINDS,
  type ContentKind,
  type ContentRef,
  contentIdOf,
  parseContentId,
} from './content-id.ts';
