import { map, onMount, onNotify } from 'nanostores';
import { browserOnly } from './browser-only';

/** SPEC.md §4, §8: the toast clears itself after 3000 ms. */
export const TOAST_DISMISS_MS = 3000;

/**
 * SPEC.md §3 Error state (UI kit). Not persisted: a reload starts without an error. While the
 * toast listens (islands/ErrorToast.tsx, through use-working-store.ts) each message shown clears
 * itself after TOAST_DISMISS_MS; nothing counts down on a page without the toast.
 */
export const $error = browserOnly(
  map<{ show: boolean; message: string }>({ show: false, message: '' }),
  'error',
);
onMount($error, dismissShownMessages);

/** SPEC.md §4 Error toast: a string shows that message; a boolean sets visibility and clears it. */
export function showError(value: string | boolean): void {
  if (typeof value === 'string') $error.set({ show: true, message: value });
  else $error.set({ show: value, message: '' });
}

/**
 * Hides each message TOAST_DISMISS_MS after it is shown, one shown before the toast came
 * included. Every showError() sets a new state object, so a new message (even the same text
 * again) restarts the clock. Returns the stop.
 */
function dismissShownMessages(): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const restart = () => {
    clearTimeout(timer);
    if ($error.value?.show) timer = setTimeout(() => showError(false), TOAST_DISMISS_MS);
  };
  restart();
  const unbind = onNotify($error, restart);
  return () => {
    unbind();
    clearTimeout(timer);
  };
}
