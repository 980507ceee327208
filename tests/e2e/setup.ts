import { watchEachTest } from './browser.ts';

// Every spec file's tests: a failure pictured, a closed context closed for real (browser.ts).
watchEachTest();
