import { map } from 'nanostores';

/** The full-screen loading overlay (SPEC.md §2). Not persisted. */
export const $loader = map<{ enabled: boolean; message: string }>({ enabled: false, message: '' });

export function setLoading(enabled: boolean, message = ''): void {
  $loader.set({ enabled, message });
}
