import type { ConsoleState } from '../../../shared/console-api/config';
import { atom } from './atom';

/** What the worker says is live, who the marketer is, and what can be picked. */
export type Live =
  | { kind: 'loading' }
  | { kind: 'ready'; state: ConsoleState }
  | { kind: 'failed'; message: string };

export const $live = atom<Live>({ kind: 'loading' });
