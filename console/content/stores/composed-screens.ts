import {
  composedNameProblem,
  flowsWalking,
  isComposedIn,
  withComposedScreen,
  withoutComposedScreen,
} from '../../kit/composed-screens';
import { $draft, editContent } from '../../kit/stores/draft';
import { $contentAnnouncement, $contentSelection, select } from './content-editor';

/**
 * Making and taking out the screens a marketer composes (../../kit/composed-screens.ts), in the
 * console's draft: a new one is selected in the content editor at once, to be edited like any.
 */

/** Composes a new screen from `from`; null when made, else why not. */
export function createComposedScreen(screen: {
  id: string;
  slot: string;
  from: string;
}): string | null {
  const content = $draft.get()?.document.content;
  if (!content) return null;
  const problem = composedNameProblem(content, screen.id);
  if (problem) return problem;
  editContent((current) => withComposedScreen(current, screen));
  select({ screen: screen.id, section: null, variant: null });
  $contentAnnouncement.set(
    `Screen ${screen.id} created from ${screen.from}: edits now change it. Add it to a flow under Edit and publish.`,
  );
  return null;
}

/** Takes the selected composed screen out of the draft; null when done, else why not. */
export function deleteComposedScreen(): string | null {
  const draft = $draft.get();
  const { screen } = $contentSelection.get();
  if (!draft || !isComposedIn(draft.document.content, screen)) return null;
  const flows = flowsWalking(draft.document.flows.flows, screen);
  if (flows.length > 0) {
    const names = flows.map((flow) => `"${flow}"`).join(', ');
    return `${screen} cannot be deleted: flow${flows.length > 1 ? 's' : ''} ${names} still show${flows.length > 1 ? '' : 's'} it. Take it out of ${flows.length > 1 ? 'them' : 'it'} first.`;
  }
  editContent((current) => withoutComposedScreen(current, screen));
  select({ screen: 'one_pager', section: null, variant: null });
  $contentAnnouncement.set(`Screen ${screen} deleted.`);
  return null;
}
