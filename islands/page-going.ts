/**
 * Whether the page is going: Chromium stops a document's requests as a navigation away takes it,
 * in the task just before its pagehide, so a request that fails then did not fail for the
 * visitor, who has moved on. A failure is taken for the page going when pagehide comes before the
 * next task (as the analytics uploader reads a failed send, ./analytics/uploader.ts); a page back
 * from the back/forward cache is here again.
 */

let going = false;
if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', () => {
    going = true;
  });
  window.addEventListener('pageshow', () => {
    going = false;
  });
}

/** After a request failed: whether the page went with it, once the next task has run. */
export function wentWithThePage(): Promise<boolean> {
  return new Promise((resolve) => setTimeout(() => resolve(going), 0));
}
