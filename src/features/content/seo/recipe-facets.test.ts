import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createFacetCategory } from '../../../../tests/factories/index.ts';
import { createTestDatabase } from '../../../../tests/setup/database.ts';
import type { DatabaseHandle } from '../../../db/client.ts';
import { recipeFacets } from './recipe-facets.server.ts';

let database: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase(inject('templateDatabase'));
});

afterAll(() => database.close());

describe('recipeFacets', () => {
  it('names each tag with its category, categories and tags in their sort order', async () => {
    const { db } = database;
    const recipes = { siteId: 'sibylla', scope: 'recipes' };
    // The categories and the course tags are inserted against their sort order: the order must
    // come from sortOrder, not from the ids.
    const main = await createFacetCategory(db, {
      ...recipes,
      name: 'Pääraaka-aine',
      sortOrder: 2,
      tags: [
        { name: 'Jauheliha', sortOrder: 1 },
        { name: 'Broileri', sortOrder: 2 },
      ],
    });
    const course = await createFacetCategory(db, {
      ...recipes,
      name: 'Ruokalaji',
      sortOrder: 1,
      tags: [
        { name: 'Pääruoka', sortOrder: 2 },
        { name: 'Arki', sortOrder: 1 },
      ],
    });
    const ids = [main.tags.Jauheliha, course.tags.Pääruoka, course.tags.Arki] as number[];
    expect(await recipeFacets(db, [...ids, ...ids])).toEqual([
      { category: 'Ruokalaji', name: 'Arki' },
      { category: 'Ruokalaji', name: 'Pääruoka' },
      { category: 'Pääraaka-aine', name: 'Jauheliha' },
    ]);
    expect(await recipeFacets(db, [])).toEqual([]);
  });
});
