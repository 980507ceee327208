/**
 * What the client entry needs to hydrate an island, in one module that it imports when the
 * first island's trigger fires: React's `createElement`, React DOM's `hydrateRoot`, the islands'
 * root and the page's texts. The build puts it with React in one chunk (vite.config.ts).
 */
export { createElement } from 'react';
export { hydrateRoot } from 'react-dom/client';
export { IslandRoot } from './island-root.tsx';
export { pageTexts } from './part-texts.ts';
