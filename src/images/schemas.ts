import { z } from 'zod';
import { type PresetName, presetNames } from './presets.ts';

/**
 * `/images/:id/:file`: the id picks the image; the file name (slug and extension) is cosmetic.
 * The id is written one way only, in plain digits without a leading zero: `0x10`, `1e3`, `016` or
 * ` 16` would otherwise name the same picture under other URLs, each a cache entry of its own.
 */
export const imageParams = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,9}$/)
    .transform(Number)
    .pipe(z.number().max(2_147_483_647)),
  file: z.string().regex(/^[a-z0-9][a-z0-9-]{0,99}(\.(jpg|jpeg|webp|avif))?$/),
});

/**
 * `?preset=`: one of the preset table's names, `default` when left out; `&v=`: the image's
 * revision (decision 168), 1 when left out, written in plain digits like the id.
 */
export const imageQuery = z.object({
  preset: z
    .enum(presetNames as [PresetName, ...PresetName[]], { message: 'validation.invalid' })
    .default('default'),
  v: z
    .string()
    .regex(/^[1-9]\d{0,8}$/, 'validation.invalid')
    .transform(Number)
    .optional(),
});
