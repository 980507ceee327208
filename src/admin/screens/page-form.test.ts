import { describe, expect, it } from 'vitest';
import { blockSchema } from '../../features/content/blocks.ts';
import { blockTypes, emptyPageForm, newBlock, pageDocumentOf } from './page-form.ts';
import { fieldsOf } from './schema-fields.tsx';

/**
 * The page editor's blocks come from the renderer's own schema (decision 166): every block type
 * has a form, every value a block may hold has a field of a kind the editor draws (none left
 * out), rich text is where the schema marks it, pictures where a key names one, and the form's
 * errors are the schema's, by the API's field names.
 */
describe('the page editor’s blocks', () => {
  it('know every block type of the renderer', () => {
    const types = blockTypes.map(([type]) => type);
    expect(types).toHaveLength(24);
    expect(types).toContain('rich-text');
    for (const type of types) expect(newBlock(type).value.type).toBe(type);
  });

  it('draw a field for every value a block may hold', () => {
    const fields = blockTypes.flatMap(([type, schema]) =>
      fieldsOf(schema).map(([path, kind]) => [`${type}.${path}`, kind] as const),
    );
    expect(fields.filter(([, kind]) => kind === 'none')).toEqual([]);
    expect(fields.filter(([, kind]) => kind === 'richText').map(([path]) => path)).toEqual([
      'hero-carousel.slides.*.text',
      'rich-text.html',
    ]);
    const images = fields.filter(([, kind]) => kind === 'image').map(([path]) => path);
    expect(images).toContain('card-grid.cards.*.imageId');
    expect(images).toContain('hero-video.posterImageId');
    expect(images).toContain('card-grid.cards.*.profileImageId');
    expect(fields).toContainEqual(['card-grid.columns', 'choice']);
    expect(fields).toContainEqual(['form.form', 'choice']);
    expect(fields).toContainEqual(['image-carousel.autoplaySeconds', 'number']);
    expect(fields).toContainEqual(['slider.slides.*.IsVideo', 'boolean']);
  });

  it('start a new block from its schema: defaults given, required values left to fill', () => {
    expect(newBlock('image-carousel').value).toMatchObject({ autoplaySeconds: 5, slides: [{}] });
    expect(blockSchema.safeParse(newBlock('page-tabs').value).success).toBe(true);
    const form = {
      ...emptyPageForm(),
      title: 'Uusi',
      path: '/uusi',
      blocks: [newBlock('rich-text'), newBlock('flip-card')],
    };
    const made = pageDocumentOf(form);
    expect(made).toEqual({
      errors: {
        'document.blocks.1.question': 'admin.error.required',
        'document.blocks.1.answer': 'admin.error.required',
      },
    });
    const filled = {
      ...form,
      blocks: [
        { ...form.blocks[0], value: { type: 'rich-text', html: '<p>Teksti</p>' } },
      ] as typeof form.blocks,
    };
    expect('document' in pageDocumentOf(filled)).toBe(true);
  });
});
