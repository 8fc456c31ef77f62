import { type Atom, atom } from './atom';

/** What the last action of each section did, for its status line (role=status). */
export const $editStatus = atom('');
export const $historyStatus = atom('');
export const $resultsStatus = atom('');

/** The status lines' element ids: focus goes there after a publish or a roll back. */
export const EDIT_STATUS_ID = 'edit-status';
export const HISTORY_STATUS_ID = 'history-status';

const settledByPublish = new Set<Atom<string>>();

/**
 * A status line whose messages are about the draft ("… is in the draft. Publish it below"): the
 * publish that makes the draft live settles them, and clears the line (settleDraftStatuses).
 */
export function clearedOnPublish(store: Atom<string>): Atom<string> {
  settledByPublish.add(store);
  return store;
}

/** Clears every status line a publish settles: the draft they spoke of is live now. */
export function settleDraftStatuses(): void {
  for (const store of settledByPublish) store.set('');
}
