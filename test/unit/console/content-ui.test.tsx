// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ContentVisualDiff } from '../../../console/content/ContentVisualDiff';
import { $draft } from '../../../console/kit/stores/draft';
import { holdEveryLanguage } from '../../../scripts/every-language';
import type { ConsoleState } from '../../../shared/console-api/config';
import { HEADLINE_IN_EVERY_LANGUAGE } from '../../fixtures/content';
import { eachOnAFreshEditor, lastDrawn, openEditor } from './content-worker';
import { consoleState } from './fixtures';

// The catalogue holds every language: in Node they come from the source files.
holdEveryLanguage();

/**
 * The content editor in happy-dom against the worker's own catalogue (the bundle's screens,
 * sections and texts), the worker's other calls stubbed: what a marketer picks, and what the
 * editor then sends the worker to draw and says about it. What the worker draws for those
 * requests is test/worker/console/content-editor-pages.test.ts's; the preview frame, the in-place
 * editing and a publish round trip are test/browser/console-content.test.ts's.
 */

const TITLE = 'screens.one_pager.title';
const CHECKOUT = 'Checkout: card first, trial note (checkout_v3_tr)';
const SPRING_TITLE = HEADLINE_IN_EVERY_LANGUAGE.en ?? '';

/** The live config with route `spring` (German visitors) showing variant `spring` of the landing. */
function withSpringRoute(state: ConsoleState): ConsoleState {
  const { live } = state;
  const copy = Object.fromEntries(
    Object.entries(HEADLINE_IN_EVERY_LANGUAGE).map(([language, text]) => [
      language,
      { [TITLE]: text },
    ]),
  );
  return {
    ...state,
    live: {
      ...live,
      content: { screens: { one_pager: { variants: { spring: { copy } } } } },
      routing: {
        ...live.routing,
        audiences: {
          germany: { groups: [[{ attribute: 'country', operator: 'in', values: ['DE'] }]] },
        },
        routes: [
          { id: 'spring', audience: 'germany', flow: 'lp11ch8', content: { one_pager: 'spring' } },
          ...live.routing.routes,
        ],
      },
    },
  };
}

eachOnAFreshEditor();

describe('the content editor on a checkout', () => {
  it('names the screen and its sections in plain words, and says why the required stay', async () => {
    const user = userEvent.setup();
    const content = await openEditor();
    expect(content.getByText(/^What each screen shows, from the landing to success/)).toBeTruthy();
    await user.selectOptions(content.getByLabelText('Screen', { exact: true }), CHECKOUT);
    await lastDrawn({ screen: 'checkout_v3_tr' });
    const names = document.querySelectorAll('.content-section__name');
    expect([...names].map((name) => name.textContent)).toEqual([
      'Offer countdown',
      'Title and intro',
      'Trial or PayPal note',
      'Plan picker',
      'Payment form',
      'Guarantee',
      'Trust labels',
      'Payment provider logos',
      'Support links',
    ]);
    const hidePlans = content.getByRole('button', { name: 'Show: Plan picker' });
    expect(hidePlans.getAttribute('aria-disabled')).toBe('true');
    const reason = hidePlans.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(reason)?.textContent).toBe(
      'Required. Visitors must see the plans and prices they pay for.',
    );
  });

  it('composes a paywall from it, which the preview draws and the review names as new', async () => {
    const user = userEvent.setup();
    const content = await openEditor();
    const newScreen = within(content.getByRole('group', { name: 'New screen' }));
    await user.selectOptions(newScreen.getByLabelText('Slot'), 'Paywall or checkout');
    await user.selectOptions(newScreen.getByLabelText('Start from'), CHECKOUT);
    await user.type(newScreen.getByLabelText('Name (its address)'), 'spring_paywall');
    expect(newScreen.getByText('Visitors will open /spring_paywall.')).toBeTruthy();
    await user.keyboard('{Enter}');
    const picker = content.getByLabelText('Screen', { exact: true }) as HTMLInputElement;
    expect(picker.value).toBe('spring_paywall');
    await user.click(content.getByRole('button', { name: 'Move down: Offer countdown' }));
    const composed = $draft.get()?.document.content.composed?.spring_paywall;
    expect(composed).toMatchObject({ slot: 'paywall', from: 'checkout_v3_tr' });
    expect(composed?.sections?.slice(0, 2).map((section) => section.id)).toEqual([
      'heading',
      'countdown',
    ]);
    // The preview asks the worker to draw the new screen from the draft that composes it.
    await lastDrawn({
      screen: 'spring_paywall',
      content: { screens: {}, composed: { spring_paywall: composed! } },
    });

    // The review draws the screen the worker says the publish adds, named as new.
    cleanup();
    const route = { id: 'default', flow: 'default', plans: null };
    render(
      <ContentVisualDiff
        screens={[
          {
            screen: 'spring_paywall',
            routes: [],
            arm: null,
            live: null,
            draft: { variant: null, route },
            languages: ['en'],
          },
        ]}
      />,
    );
    const name = `spring_paywall (new, from ${CHECKOUT}) in English`;
    expect(screen.getByRole('heading', { name })).toBeTruthy();
    expect(screen.getByText('Not live yet: a new screen, which this publish adds.')).toBeTruthy();
    expect(await screen.findByTitle(`Draft: ${name}`)).toBeTruthy();
  });
});

describe('previewing content as a route', () => {
  it('shows the route’s variant and a country’s visitor, and says so', async () => {
    const user = userEvent.setup();
    const content = await openEditor(withSpringRoute(consoleState()));
    const route = content.getByLabelText('Preview as route');
    await user.selectOptions(route, 'spring');
    // The editor edits the variant the route shows, and draws the landing as its visitors see it.
    expect((content.getByLabelText('Version') as HTMLInputElement).value).toBe('spring');
    await content.findByText(/^The preview shows route spring’s visitors/);
    const asked = await lastDrawn({ route: { id: 'spring', flow: 'lp11ch8' } });
    expect(asked.content.screens.one_pager?.copy?.en?.[TITLE]).toBe(SPRING_TITLE);

    // A visitor from Germany, said in the frame's title.
    await user.selectOptions(content.getByLabelText('Visitor’s country'), 'DE');
    await lastDrawn({ route: { id: 'spring' }, country: 'DE' });
    await waitFor(() =>
      expect(document.querySelector('iframe')?.getAttribute('title')).toContain(
        'as route spring shows it, to a visitor from DE',
      ),
    );

    // No route: the visitor from Germany is drawn as the edge routes them, from the whole content.
    await user.selectOptions(route, '');
    const routed = await lastDrawn({ route: null, country: 'DE' });
    expect(routed.content.screens.one_pager?.variants?.spring).toBeDefined();
    expect((content.getByLabelText('Version') as HTMLInputElement).value).toBe('');
    await user.selectOptions(content.getByLabelText('Visitor’s country'), '');
    await lastDrawn({ route: null, country: null });
  });
});
