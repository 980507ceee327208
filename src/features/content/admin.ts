/**
 * The content feature's surface for the /admin app (decision 145): the recipe editing API's
 * schemas and types, the comparison of versions and the address of an image's thumbnail. Nothing
 * here loads database code or public components.
 */
import { imageUrl } from '../../images/presets.ts';

export { type Block, blockSchema } from './blocks.ts';
export * from './media/schemas.ts';
export * from './publishing/kind-schemas.ts';
export * from './publishing/schemas.ts';

/** The square thumbnail of an image (the image route's `thumbnail-medium` preset). */
export const thumbnailUrl = (imageId: number) => imageUrl({ id: imageId }, 'thumbnail-medium');
export * from './publishing/schedule-schemas.ts';
