/**
 * The one stylesheet of every page: the global styles and every component's CSS module, gathered
 * at build time into a single file (`cssCodeSplit: false`), so server-rendered components are
 * styled before any island loads and islands never fetch CSS of their own.
 */
import './global.css';

import.meta.glob(['../**/*.module.css'], { eager: true });
