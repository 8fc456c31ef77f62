import { atom } from './atom';

/** What the last action of each section did, for its status line (role=status). */
export const $editStatus = atom('');
export const $historyStatus = atom('');
export const $resultsStatus = atom('');

/** The status lines' element ids: focus goes there after a publish or a roll back. */
export const EDIT_STATUS_ID = 'edit-status';
export const HISTORY_STATUS_ID = 'history-status';
