import type { ComponentProps, ComponentType } from 'react';
import {
  contentIslandParts,
  contentIslands,
  loadStaticParts,
} from '../features/content/islands.ts';
import { formsIslandParts, formsIslands } from '../features/forms/islands.ts';
import { lunchMenuIslands } from '../features/lunch-menu/islands.ts';
import { navigationIslandParts, navigationIslands } from '../features/navigation/islands.ts';
import { searchIslandParts, searchIslands } from '../features/search/islands.ts';
import { shopIslandParts, shopIslands } from '../features/shop/islands.ts';
import { subscriptionIslandParts, subscriptionIslands } from '../features/subscriptions/islands.ts';
import type { ResolvedIslands } from '../render/island.server.tsx';

/**
 * Every island the pages may use, by name: each feature's table of lazy imports. The name is
 * written once, there; it decides the component and so the props (see `IslandComponents`).
 */
export const islands = {
  ...navigationIslands,
  ...formsIslands,
  ...contentIslands,
  ...searchIslands,
  ...shopIslands,
  ...subscriptionIslands,
  ...lunchMenuIslands,
  ...joinedIslands(),
};

/**
 * Islands made of two features' parts. The shop's product search is the search's grid with the
 * shop's card part (price, stock, buy control, product modal) in each card: the features' browser
 * code does not import each other's components (through a surface, the shop's card would land in
 * the chunk every page's header loads), and only the shop's search page fetches the two chunks.
 */
function joinedIslands() {
  return {
    'shop-product-search': joined(
      searchIslandParts.shopProductSearch,
      shopIslandParts.productCardPart,
    ),
    // The content's card carousel and card-grid island with the shop's buy control in each
    // `lkProductCard` (only pages with such cards fetch the shop's part).
    'product-card-carousel': joined(
      contentIslandParts.productCardCarousel,
      shopIslandParts.cardBuyPart,
    ),
    'product-card-grid': joined(contentIslandParts.productCardGrid, shopIslandParts.cardBuyPart),
    // The header of a site that sells through the shop, with the shop's cart sync.
    'site-header-synced': joined(navigationIslandParts.syncedHeader, shopIslandParts.cartSync),
    // The food-service sites' floating overlay with the forms feature's expert question form.
    'floating-overlay': joined(
      subscriptionIslandParts.floatingOverlay,
      formsIslandParts.expertQuestion,
    ),
  };
}

/**
 * An island of two parts: the first part's export takes the second's and makes the component.
 * The browser joins them the same way from the modules the island's element names (decision
 * 161; `scripts/island-texts.ts` reads these lines).
 */
function joined<Part, Component>(
  withPart: () => Promise<(part: Part) => Component>,
  part: () => Promise<Part>,
): () => Promise<Component> {
  return () => Promise.all([withPart(), part()]).then(([join, loaded]) => join(loaded));
}

type Registry = typeof islands;
type ComponentOf<L> = L extends () => Promise<infer C extends ComponentType<never>> ? C : never;
type Components = { [N in keyof Registry]: ComponentOf<Registry[N]> };

declare module '../render/island.server.tsx' {
  interface IslandComponents extends Components {}
}

/** Whether a value survives `JSON.stringify` and `JSON.parse` unchanged: props travel as JSON. */
type JsonSafe<T> = unknown extends T
  ? true // a component without props
  : T extends string | number | boolean | null | undefined
    ? true
    : T extends (...args: never[]) => unknown
      ? false
      : T extends Date | Map<unknown, unknown> | Set<unknown> | bigint | symbol
        ? false
        : T extends readonly (infer U)[]
          ? JsonSafe<U>
          : T extends object
            ? false extends { [K in keyof T]-?: JsonSafe<T[K]> }[keyof T]
              ? false
              : true
            : false;
type UnsafeIslands = {
  [N in keyof Components]: JsonSafe<ComponentProps<Components[N]>> extends true ? never : N;
}[keyof Components];
/** Fails to compile, naming the island, when an island's props are not plain JSON. */
const propsAreJson: [UnsafeIslands] extends [never] ? true : UnsafeIslands = true;
void propsAreJson;

/** Every island's component, loaded: the server renders islands with these. */
export async function loadIslands(): Promise<ResolvedIslands> {
  const names = Object.keys(islands) as (keyof Registry)[];
  const loaded = await Promise.all(names.map((name) => islands[name]()));
  // The parts the browser keeps as the server rendered them (cards, decision 160; carousel slides,
  // decision 161): the server renders them, so their code must be here first (the header's
  // deferred parts load with its island).
  await loadStaticParts();
  return Object.fromEntries(names.map((name, i) => [name, loaded[i]])) as ResolvedIslands;
}
