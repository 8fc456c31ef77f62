// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CopyFields } from '../../../console/content/CopyFields';
import {
  $contentCatalogue,
  $contentSelection,
} from '../../../console/content/stores/content-editor';
import { useStore } from '../../../console/kit/stores/atom';
import { $draft, startDraft } from '../../../console/kit/stores/draft';
import type { ComposedScreenChoice, ContentCatalogue } from '../../../shared/console-api/content';
import { consoleState } from './fixtures';

/**
 * A copy field of the content editor keeps its element, and so the focus, while a marketer types:
 * a long text replaced by a short one once turned a textarea into an input after the first key,
 * and the other keys went to the page.
 */

const TITLE = 'screens.one_pager.title';
const LONG = 'Find out where your loved ones are, at any time, on any phone, with their consent';

const SCREEN: ComposedScreenChoice = {
  id: 'one_pager',
  slot: 'landing',
  composition: ['hero'],
  sections: { hero: { id: 'hero', required: true, maxChars: 120, keys: [TITLE] } },
} as ComposedScreenChoice;

const CATALOGUE = {
  languages: ['en'],
  rtl: [],
  screens: [SCREEN],
  texts: { en: { [TITLE]: LONG } },
  overridden: {},
} as unknown as ContentCatalogue;

/** The fields as the editor draws them: from the draft, drawn again on each edit. */
function Fields() {
  const draft = useStore($draft);
  if (!draft) return null;
  return (
    <CopyFields
      catalogue={CATALOGUE}
      screen={SCREEN}
      section="hero"
      language="en"
      content={draft.document.content}
      issues={[]}
      notes={[]}
    />
  );
}

beforeEach(() => {
  startDraft(consoleState());
  $contentCatalogue.set({ kind: 'ready', catalogue: CATALOGUE });
  $contentSelection.set({
    screen: 'one_pager',
    language: 'en',
    theme: 'geozilla',
    section: 'hero',
    variant: null,
    width: 'phone',
    route: null,
    country: '',
  });
});

afterEach(cleanup);

describe('a copy field while typing', () => {
  it('is named in words with its key, and keeps the focus when a long text is typed short', async () => {
    render(<Fields />);
    const field = screen.getByRole('textbox', { name: `Headline ${TITLE}` });
    const user = userEvent.setup();
    await user.click(field);
    await user.clear(field);
    await user.keyboard('Locate any phone');
    const now = screen.getByRole('textbox', { name: `Headline ${TITLE}` });
    expect(now).toBe(field);
    expect(document.activeElement).toBe(field);
    expect((field as HTMLTextAreaElement).value).toBe('Locate any phone');
    expect($draft.get()?.document.content.screens.one_pager?.copy?.en?.[TITLE]).toBe(
      'Locate any phone',
    );
  });
});
