import { sweepEndedStorage } from '../../scripts/built-worker';

/**
 * The browser project's teardown, in Vitest's own process once every test process has ended:
 * ends the workerds they kept (test/browser/harness.ts) that outlived them, and removes their
 * storage (scripts/built-worker.ts, sweepEndedStorage).
 */
export function teardown(): void {
  sweepEndedStorage();
}
