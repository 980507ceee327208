import type { ImageDto } from '../content.server.ts';
import { imageUrl, presetSize } from '../images/presets.ts';

/**
 * An image of the content in one of the presets, with its width and height in the markup so the
 * page does not shift while it loads. `decorative` images get an empty alt.
 */
export function ContentImage(props: {
  image: ImageDto;
  preset: string;
  className?: string;
  eager?: boolean;
  decorative?: boolean;
}) {
  const size = presetSize(props.preset, props.image);
  return (
    <img
      src={imageUrl(props.image, props.preset)}
      width={size.width}
      height={size.height}
      alt={props.decorative ? '' : props.image.alt}
      loading={props.eager ? 'eager' : 'lazy'}
      decoding="async"
      className={props.className}
      {...(props.eager ? { fetchPriority: 'high' as const } : {})}
    />
  );
}
