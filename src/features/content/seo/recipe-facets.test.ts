import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase } from '../../../../tests/setup/database.ts';
import type { DatabaseHandle } from '../../../db/client.ts';
import { facetCategories, facetTags } from '../../../db/schema.ts';
import { recipeFacets } from './recipe-facets.server.ts';

let database: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase(inject('templateDatabase'));
});

afterAll(() => database.close());

describe('recipeFacets', () => {
  it('names each tag with its category, categories and tags in their sort order', async () => {
    const { db } = database;
    const [main, course] = await db
      .insert(facetCategories)
      .values([
        { siteId: 'sibylla', lang: 'fi', scope: 'recipes', name: 'Pääraaka-aine', sortOrder: 2 },
        { siteId: 'sibylla', lang: 'fi', scope: 'recipes', name: 'Ruokalaji', sortOrder: 1 },
      ])
      .returning();
    if (!main || !course) throw new Error('no categories');
    const tags = await db
      .insert(facetTags)
      .values([
        { categoryId: main.id, name: 'Jauheliha', sortOrder: 1 },
        { categoryId: course.id, name: 'Pääruoka', sortOrder: 2 },
        { categoryId: course.id, name: 'Arki', sortOrder: 1 },
        { categoryId: main.id, name: 'Broileri', sortOrder: 2 },
      ])
      .returning();
    const ids = tags.filter((t) => t.name !== 'Broileri').map((t) => t.id);
    expect(await recipeFacets(db, [...ids, ...ids])).toEqual([
      { category: 'Ruokalaji', name: 'Arki' },
      { category: 'Ruokalaji', name: 'Pääruoka' },
      { category: 'Pääraaka-aine', name: 'Jauheliha' },
    ]);
    expect(await recipeFacets(db, [])).toEqual([]);
  });
});
