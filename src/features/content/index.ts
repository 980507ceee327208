/** Browser-safe parts of the content feature: the content model's blocks and cards. */
export { type Block, type Card, type CardType, cardTypes, pageBlocks } from './blocks.ts';
