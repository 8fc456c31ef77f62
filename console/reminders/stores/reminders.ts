import type { ScheduledRemindersAnswer } from '../../../shared/console-api/reminders';
import { atom } from '../../kit/stores/atom';
import { type Loaded, loadedFrom } from '../../kit/stores/loaded';
import { fetchScheduledReminders } from '../reminders-api';

/**
 * The renewal reminders scheduled in the ledger, as the worker last answered them; `idle` until
 * someone asks. Not read with the rest of the console: the read asks all 16 ledger shards, which a
 * marketer opening the console for the results has no need of (Reminders.tsx reads it on opening
 * the section).
 */
export type ScheduledReminders = { kind: 'idle' } | Loaded<{ answer: ScheduledRemindersAnswer }>;

export const $scheduledReminders = atom<ScheduledReminders>({ kind: 'idle' });

/**
 * Reads them (again). The list is loading meanwhile, so a refresh that fails never leaves an
 * older list looking current.
 */
export async function loadScheduledReminders(): Promise<void> {
  $scheduledReminders.set({ kind: 'loading' });
  const answer = await fetchScheduledReminders();
  $scheduledReminders.set(loadedFrom(answer, (value) => ({ answer: value })));
}

/** Reads them the first time they are looked at; a list already read waits for Refresh. */
export function openScheduledReminders(): void {
  if ($scheduledReminders.get().kind === 'idle') void loadScheduledReminders();
}
