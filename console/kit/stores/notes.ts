import { type Atom, atom } from './atom';

/**
 * The notes being written for a review or a publish, one per form, kept outside the forms: a
 * review is drawn anew whenever it is checked again (a save lands, a colleague's edit comes in),
 * and a note typed meanwhile must not be lost, nor a review or publish sent without it. A form
 * empties its note once what it asked is done.
 */
const notes = new Map<string, Atom<string>>();

/** The note of the form whose input is `id`. */
export function noteOf(id: string): Atom<string> {
  let note = notes.get(id);
  if (!note) {
    note = atom('');
    notes.set(id, note);
  }
  return note;
}
