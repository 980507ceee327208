export { imageUrl, presetSize } from './images/presets.ts';
