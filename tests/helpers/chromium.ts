import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** Flags for Debian's Chromium on a machine without internet. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * The features Playwright turns off when it launches Chromium (playwright-core's own
 * `--disable-features`). Chromium reads only the last `--disable-features` of its command line, so
 * a list of the browser tests' own has to repeat these; `tests/e2e/chromium.spec.ts` fails when
 * Playwright's list changes.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Browser work no page of ours needs, done for every window the tests open (decision 153): the
 * address bar's suggestion popups, each a page of its own in a renderer process of its own, and
 * the spare renderer process Chromium starts ahead of the next navigation.
 */
export const UNUSED_FEATURES = [
  'WebUIOmniboxPopup',
  'WebUIOmniboxFullPopup',
  'WebUIOmniboxAimPopup',
  'SpareRendererForSitePerProcess',
];

/** The browser tests' flags: `CHROMIUM_FLAGS`, and the features off (Playwright's and ours). */
export const PLAYWRIGHT_CHROMIUM_FLAGS = [
  ...CHROMIUM_FLAGS,
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...UNUSED_FEATURES].join(',')}`,
];

/** Debian's `chromium` from the PATH; nothing here downloads a browser. */
export function chromiumPath(): string {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    for (const name of ['chromium', 'chromium-browser']) {
      const file = path.join(dir, name);
      try {
        accessSync(file, constants.X_OK);
        return file;
      } catch {
        // not in this folder
      }
    }
  }
  throw new Error('Chromium is not on the PATH: apt-get install -y chromium');
}
