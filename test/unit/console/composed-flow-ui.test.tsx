// @vitest-environment happy-dom
import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { $draft } from '../../../console/kit/stores/draft';
import { openPage } from '../../../console/kit/stores/page';
import { CurrentPage } from '../../../console/page/Console';
import { holdEveryLanguage } from '../../../scripts/every-language';
import type { ConsoleArea } from '../../../shared/console-api/pages';
import { checkFullDocument } from '../../../worker/config/document';
import { HEADLINE_IN_EVERY_LANGUAGE } from '../../fixtures/content';
import { renderAreas } from './areas';
import { eachOnTheBuiltWorkersConsole } from './content-worker';

// The catalogue holds every language: in Node they come from the source files.
holdEveryLanguage();

/**
 * A composed landing put first in a new flow, in happy-dom against the worker's catalogue
 * (./content-worker.tsx): composed on the Content page from the classic landing, its name checked
 * as typed; a flow `spring` made on Edit and publish with it first, the split's default variant
 * and the default route sent there; then it cannot be deleted while the flow shows it, and the
 * draft is one the worker's own check takes. What the worker serves of it once published is
 * test/worker/content/composed-screen.test.ts's (the first screen of the flow, its form moving on
 * to the next), what a route test and the review draw of it test/worker/console/'s, and a visitor
 * walking it in Chromium test/browser/console-content.test.ts's.
 */

const TITLE = 'screens.one_pager.title';
const NEW_TITLE = HEADLINE_IN_EVERY_LANGUAGE.en ?? '';

eachOnTheBuiltWorkersConsole();

/** An area's page, as its link in the navigation opens it. */
async function areaOf(area: ConsoleArea, title: string) {
  act(() => openPage(area));
  return within(await screen.findByRole('region', { name: title }));
}

describe('a composed landing in a new flow', () => {
  it('is composed from the classic one, put first in flow spring for route default, and kept while shown', async () => {
    const user = userEvent.setup();
    openPage('content');
    renderAreas((state) => <CurrentPage state={state} />);
    const content = await areaOf('content', 'Content');
    await content.findByLabelText('Screen', { exact: true });

    // New screen: a landing from the classic one, its name checked as it is typed.
    const newScreen = within(content.getByRole('group', { name: 'New screen' }));
    expect((newScreen.getByLabelText('Slot') as HTMLInputElement).value).toBe('landing');
    await user.selectOptions(newScreen.getByLabelText('Start from'), 'one_pager');
    const name = newScreen.getByLabelText('Name (its address)');
    fireEvent.change(name, { target: { value: 'checkout_spring' } });
    expect(newScreen.getByText(/begins like the screens in code/)).toBeTruthy();
    fireEvent.change(name, { target: { value: 'spring_landing' } });
    expect(newScreen.getByText('Visitors will open /spring_landing.')).toBeTruthy();
    name.focus();
    await user.keyboard('{Enter}');
    const picked = content.getByLabelText('Screen', { exact: true }) as HTMLInputElement;
    expect(picked.value).toBe('spring_landing');
    fireEvent.change(content.getByLabelText(`Headline ${TITLE}`), {
      target: { value: NEW_TITLE },
    });

    // On Edit and publish: flow spring, led by the new landing, the split's default variant's.
    const edit = await areaOf('publish', 'Edit and publish');
    const addFlow = within(edit.getByRole('form', { name: 'Add a flow' }));
    fireEvent.change(addFlow.getByLabelText('Name'), { target: { value: 'spring' } });
    await user.click(addFlow.getByRole('button', { name: 'Add flow' }));
    await user.click(edit.getByText('Flow spring', { selector: 'summary' }));
    await user.selectOptions(edit.getByLabelText('Screen to add to spring'), 'spring_landing');
    await user.click(edit.getByRole('button', { name: 'Add screen to spring' }));
    const up = edit.getByRole('button', { name: 'Move spring_landing up in spring' });
    while (up.getAttribute('aria-disabled') !== 'true') await user.click(up);
    await user.click(edit.getByRole('button', { name: 'Remove one_pager from spring' }));
    await user.selectOptions(edit.getByLabelText('Flow of default'), 'spring');
    // On Traffic: the default route's flow.
    const traffic = await areaOf('traffic', 'Traffic');
    await user.selectOptions(traffic.getByLabelText('Flow of default'), 'spring');

    const document = $draft.get()?.document;
    expect(document?.content.composed?.spring_landing).toMatchObject({
      slot: 'landing',
      from: 'one_pager',
      copy: { en: { [TITLE]: NEW_TITLE } },
    });
    expect(document?.flows.flows.spring?.[0]).toBe('spring_landing');
    expect(document?.flows.flows.spring).not.toContain('one_pager');
    expect(document?.split.variants.default?.flow).toBe('spring');
    expect(document?.routing.routes.find((route) => route.id === 'default')?.flow).toBe('spring');
    // A draft the worker's own check publishes.
    const checked = checkFullDocument(document);
    expect(checked.ok ? [] : checked.errors).toEqual([]);

    // A flow shows it: it cannot be deleted.
    const again = await areaOf('content', 'Content');
    await user.selectOptions(again.getByLabelText('Screen', { exact: true }), 'spring_landing');
    await user.click(again.getByRole('button', { name: 'Delete screen spring_landing' }));
    const alerts = await again.findAllByRole('alert');
    expect(alerts.map((alert) => alert.textContent).join(' ')).toContain(
      'flow "spring" still shows it',
    );
    expect($draft.get()?.document.content.composed?.spring_landing).toBeDefined();
  });
});
