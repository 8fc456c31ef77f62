import { DEFAULT_ROUTE_ID } from '../../../shared/routing';
import { askVisitorGets } from '../../kit/api';
import { editableScreens } from '../../kit/composed-screens';
import { $draft } from '../../kit/stores/draft';
import { rolledOutText } from '../../kit/visitor-gets';
import {
  $contentAnnouncement,
  $contentCatalogue,
  $contentSelection,
  loadContentCatalogue,
  select,
  selectScreen,
} from './content-editor';

/**
 * *Preview as route* shows the screen the route's visitors are served (docs/marketers.md, "The
 * content editor"): the worker says what a visitor of the route gets under the draft (the edge's
 * own code: rolled-out winners, the route's flow and content variants, each running test at its
 * control), and where their screen at the selected screen's slot is another (one_pager_ai once
 * its landing test was rolled out), the editor moves to it, or says that edits to the selected
 * one reach none of them.
 */
export async function followServedScreen(route: string | null): Promise<void> {
  const draft = $draft.get();
  const catalogue = $contentCatalogue.get();
  if (!draft || catalogue.kind !== 'ready') return;
  const screens = editableScreens(catalogue.catalogue, draft.document.content);
  const asked = $contentSelection.get();
  const slot = screens.find((each) => each.id === asked.screen)?.slot;
  const answer = await askVisitorGets({
    route: route ?? DEFAULT_ROUTE_ID,
    country: asked.country || null,
    platform: 'other',
    document: draft.document,
  });
  // Another choice since: its own question answers it.
  const now = $contentSelection.get();
  if (!answer.ok || now.route !== route || now.screen !== asked.screen) return;
  const served = answer.value.screens.find((each) => each.slot === slot);
  if (!served || served.ref === asked.screen) return;
  const who = `Route ${answer.value.route}’s visitors get ${served.ref}`;
  const why = rolledOutText(answer.value);
  const because = why ? ` (${why})` : '';
  if (screens.some((each) => each.id === served.ref)) {
    select({ screen: served.ref, section: null, variant: served.variant });
    $contentAnnouncement.set(`${who}${because}, not ${asked.screen}: the editor shows it.`);
  } else {
    $contentAnnouncement.set(
      `${who}${because}, not ${asked.screen}: edits to ${asked.screen} do not reach them.`,
    );
  }
}

/**
 * Opens the content editor: its catalogue, then the screen the page's address names, or else the
 * one the selected route's visitors (none chosen: the default visitor) are served, so that the
 * editor never opens on a landing a roll-out replaced (one_pager, where every new visitor gets
 * one_pager_ai). Once a visit to the console: coming back to the Content page keeps the screen
 * the marketer was on.
 */
export async function openContentEditor(screen: string | null): Promise<void> {
  if ($contentCatalogue.get().kind !== 'ready') await loadContentCatalogue();
  else if (screen === null) return;
  if (screen !== null) {
    if ($contentSelection.get().screen !== screen) selectScreen(screen);
    return;
  }
  await followServedScreen($contentSelection.get().route);
}
