export type { LayoutData } from './header-props.ts';
export { languageLinks } from './language-links.ts';
export { loadLayoutData } from './layout-data.server.ts';
export { SiteLayout } from './site-layout.tsx';
export { SiteLogo } from './site-logo.tsx';
