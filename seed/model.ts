import type {
  facetCategories,
  facetTags,
  jobs,
  mapRegions,
  newsReleases,
  pages,
  products,
  recipes,
  timelineYears,
} from '../src/features/content/tables.ts';
import type { schoolMaterials } from '../src/features/forms/tables.ts';

type WithId<T> = T & { id: number };

export type PageRow = WithId<typeof pages.$inferInsert>;
export type ProductRow = WithId<typeof products.$inferInsert>;
export type RecipeRow = WithId<typeof recipes.$inferInsert>;
export type NewsRow = WithId<typeof newsReleases.$inferInsert>;
export type FacetCategoryRow = WithId<typeof facetCategories.$inferInsert>;
export type FacetTagRow = WithId<typeof facetTags.$inferInsert>;
export type JobRow = WithId<typeof jobs.$inferInsert>;
export type TimelineRow = WithId<typeof timelineYears.$inferInsert>;
export type SchoolMaterialRow = WithId<typeof schoolMaterials.$inferInsert>;
export type MapRegionRow = WithId<typeof mapRegions.$inferInsert>;

export interface Rows {
  facetCategories: FacetCategoryRow[];
  facetTags: FacetTagRow[];
  pages: PageRow[];
  products: ProductRow[];
  recipes: RecipeRow[];
  news: NewsRow[];
  jobs: JobRow[];
  timelineYears: TimelineRow[];
  schoolMaterials: SchoolMaterialRow[];
  mapRegions: MapRegionRow[];
}

/**
 * The demo content before it is written. Every row gets its id here, in the order it is made, so
 * the rows reference each other (parent pages, facet tags) without asking the database, and a
 * second run writes the very same ids.
 */
export class Content {
  readonly rows: Rows = {
    facetCategories: [],
    facetTags: [],
    pages: [],
    products: [],
    recipes: [],
    news: [],
    jobs: [],
    timelineYears: [],
    schoolMaterials: [],
    mapRegions: [],
  };

  add<K extends keyof Rows>(table: K, row: Omit<Rows[K][number], 'id'>): Rows[K][number] {
    const list = this.rows[table] as Rows[K][number][];
    const withId = { ...row, id: list.length + 1 } as Rows[K][number];
    list.push(withId);
    return withId;
  }
}

/** 2026-06-01T00:00:00Z: every date in the demo content is counted from here, never from the clock. */
export const EPOCH = Date.UTC(2026, 5, 1);
const DAY = 86_400_000;

export function daysFromEpoch(days: number, hours = 0, minutes = 0): Date {
  return new Date(EPOCH + days * DAY + hours * 3_600_000 + minutes * 60_000);
}
