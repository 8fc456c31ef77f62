import { map } from 'nanostores';
import { browserOnly } from './browser-only';

/** The full-screen loading overlay (SPEC.md §2). Not persisted. */
export const $loader = browserOnly(
  map<{ enabled: boolean; message: string }>({ enabled: false, message: '' }),
  'loader',
);

export function setLoading(enabled: boolean, message = ''): void {
  $loader.set({ enabled, message });
}
