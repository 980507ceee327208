/** The wrapper element of an island: `display: contents`, so it adds no box of its own. */
export const ISLAND_TAG = 'k-island';

export type HydrateOn = 'load' | 'idle' | 'visible';
