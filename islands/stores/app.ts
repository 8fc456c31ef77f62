import { persistedSlice } from './persisted-slice';

/** SPEC.md §3 App state: the current flow and the offer countdown. */
export const $app = persistedSlice<{ flow: string; timerSeconds: number | null }>('app', {
  flow: 'default',
  timerSeconds: null,
});
