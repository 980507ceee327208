/**
 * For scripts that run in plain Node (tsx), not through Vite, and render nothing: features are
 * imported through their index.ts, which may re-export components with CSS modules. Importing
 * this module first registers a loader hook that makes a CSS import an empty module instead of an
 * unknown-extension error. The seed's command line and the benchmarks use it.
 */
import { register } from 'node:module';

register(
  `data:text/javascript,${encodeURIComponent(`
    export async function load(url, context, next) {
      if (url.endsWith('.css') || url.includes('.css?')) return { format: 'module', source: 'export default {};', shortCircuit: true };
      return next(url, context);
    }`)}`,
);
