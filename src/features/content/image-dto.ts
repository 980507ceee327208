/** An image as pages use it: enough for `<img>` with width, height and alt in the page's language. */
export interface ImageDto {
  id: number;
  width: number;
  height: number;
  alt: string;
}
