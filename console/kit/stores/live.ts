import type { ConsoleState } from '../../../shared/console-api/config';
import { atom } from './atom';
import type { Loaded } from './loaded';

/** What the worker says is live, who the marketer is, and what can be picked. */
export type Live = Loaded<{ state: ConsoleState }>;

export const $live = atom<Live>({ kind: 'loading' });
