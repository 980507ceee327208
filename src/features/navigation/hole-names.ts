/**
 * The names of the header's holes: the elements that show `HeaderVisitor`. A module of its own:
 * the header's browser code needs them, and `header-props.ts` reads the site registry, which the
 * browser must not load (1.6 kB, decision 161).
 */
export const HEADER_HOLES = { cart: 'header-cart', account: 'header-account' } as const;
