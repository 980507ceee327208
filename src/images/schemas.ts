import { z } from 'zod';
import { type PresetName, presetNames } from './presets.ts';

/** `/images/:id/:file`: the id picks the image; the file name (slug and extension) is cosmetic. */
export const imageParams = z.object({
  id: z.coerce.number().int().positive().max(2_147_483_647),
  file: z.string().regex(/^[a-z0-9][a-z0-9-]{0,99}(\.(jpg|jpeg|webp|avif))?$/),
});

/** `?preset=`: one of the preset table's names, `default` when left out. */
export const imageQuery = z.object({
  preset: z
    .enum(presetNames as [PresetName, ...PresetName[]], { message: 'validation.invalid' })
    .default('default'),
});
