/** An image as pages use it: enough for `<img>` with width, height and alt in the page's language. */
export interface ImageDto {
  id: number;
  width: number;
  height: number;
  alt: string;
  /** What the crops show (decision 168): in the URL, so a replaced picture gets new URLs. */
  revision?: number;
}

/**
 * `sizes` of a product page's pictures (one, or the gallery's): half the page beside the text from
 * 768 px, the whole width below.
 */
export const PRODUCT_IMAGE_SIZES = '(min-width: 768px) 45vw, 100vw';
