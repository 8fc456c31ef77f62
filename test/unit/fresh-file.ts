import { restartStores } from '../../console/kit/stores/atom';

/**
 * Each unit file starts as a page opened anew. The files share a thread's modules and its
 * happy-dom storage (vitest.config.ts, isolate: false), so what one file's last test left would
 * otherwise be the next file's start: the console's stores, and the browser's localStorage and
 * sessionStorage. A file's own tests still reset between themselves what they change.
 */
restartStores();
globalThis.localStorage?.clear();
globalThis.sessionStorage?.clear();
