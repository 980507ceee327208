export { languageLinks } from './language-links.ts';
export { SiteLayout } from './site-layout.tsx';
export { SiteLogo } from './site-logo.tsx';
