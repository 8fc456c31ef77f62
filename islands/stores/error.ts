import { map } from 'nanostores';
import { browserOnly } from './browser-only';

/** SPEC.md §3 Error state (UI kit). Not persisted: a reload starts without an error. */
export const $error = browserOnly(
  map<{ show: boolean; message: string }>({ show: false, message: '' }),
  'error',
);

/** SPEC.md §4 Error toast: a string shows that message; a boolean sets visibility and clears it. */
export function showError(value: string | boolean): void {
  if (typeof value === 'string') $error.set({ show: true, message: value });
  else $error.set({ show: value, message: '' });
}
