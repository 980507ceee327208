import type { SiteLang } from './context.ts';
import type { Content } from './model.ts';
import type { Course, DietKey, MainKey, MethodKey, ProductGroupKey } from './vocabulary/types.ts';

/**
 * Facet categories and tags of one site language: recipe facets (ingredient, course, method,
 * diet) where the site has recipes, product group and diet where it has products, topic and
 * release type where it has news.
 */
export function seedFacets(
  content: Content,
  s: SiteLang,
  has: { products: boolean; recipes: boolean; news: boolean },
) {
  const { v, site, lang } = s;
  let order = 0;
  const category = (scope: 'products' | 'recipes' | 'news', name: string) =>
    content.add('facetCategories', { siteId: site.id, lang, scope, name, sortOrder: order++ });
  const tags = <K extends string>(
    categoryId: number,
    names: Partial<Record<K, string>>,
    target: Partial<Record<K, number>>,
    display = true,
  ) => {
    (Object.entries(names) as [K, string][]).forEach(([key, name], i) => {
      target[key] = content.add('facetTags', { categoryId, name, display, sortOrder: i }).id;
    });
  };
  if (has.recipes) {
    tags<MainKey>(category('recipes', v.facets.main.name).id, v.facets.main.tags, s.facets.main);
    tags<Course>(
      category('recipes', v.facets.course.name).id,
      v.facets.course.tags,
      s.facets.course,
    );
    tags<MethodKey>(
      category('recipes', v.facets.method.name).id,
      v.facets.method.tags,
      s.facets.method,
    );
    tags<DietKey>(category('recipes', v.facets.diet.name).id, v.facets.diet.tags, s.facets.diet);
  }
  if (has.products) {
    const groups: Partial<Record<ProductGroupKey, string>> = Object.fromEntries(
      s.profile.productGroups.map((g) => [g, v.productGroups[g].name]),
    );
    // The food-service product search chooses the group with its toggles (`productGroup`), so
    // its product-group tags are not offered again as a facet.
    tags(
      category('products', v.facets.productGroup).id,
      groups,
      s.facets.productGroup,
      s.profile.kind !== 'foodservice',
    );
    tags(
      category('products', v.facets.productDiet).id,
      {
        'gluten-free': v.facets.diet.tags['gluten-free'],
        'lactose-free': v.facets.diet.tags['lactose-free'],
      },
      s.facets.productDiet,
    );
  }
  if (has.news) {
    tags(category('news', v.facets.newsTopic.name).id, v.facets.newsTopic.tags, s.facets.newsTopic);
    tags(category('news', v.facets.newsType.name).id, v.facets.newsType.tags, s.facets.newsType);
  }
}
