// @vitest-environment happy-dom
import { readFile } from 'node:fs/promises';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import PhoneForm from '../../../islands/PhoneForm';
import { serverRenderedOptions } from '../../../islands/phone/country-options';
import { $map } from '../../../islands/stores/map';
import { serverThenHydrate } from '../kit/hydrate';

const navigate = vi.hoisted(() => vi.fn());
vi.mock('../../../islands/boot', () => ({ navigate }));

const LABELS = {
  phone: 'Phone number to locate',
  country: 'Country of the phone number',
  placeholder: 'Enter a phone number',
  locate: 'Locate',
  invalid: 'This is not a valid phone number for the selected country.',
  empty: 'Please enter the phone number you want to locate.',
  checking: 'Please wait…',
  loadFailed: 'An error occurred, please try again',
};

/**
 * The network the numbering zones' files come over (islands/phone/zone-metadata.ts): each is
 * read from shared/phone/metadata/, and its zone noted in the order asked; a zone named in `held` waits
 * until released, one in `failing` answers 503.
 */
function zoneFiles() {
  const asked: string[] = [];
  const held = new Map<string, () => void>();
  const failing = new Set<string>();
  const holding = new Set<string>();
  vi.stubGlobal('fetch', async (url: URL | string) => {
    // Vite serves the files from the project's root (the build, from dist/client/assets).
    const path = `.${new URL(url).pathname}`;
    const zone = /zone-(\d+)\.json$/.exec(path)?.[1] ?? path;
    asked.push(zone);
    if (holding.has(zone)) await new Promise<void>((release) => held.set(zone, release));
    if (failing.has(zone)) return new Response('', { status: 503 });
    return new Response(await readFile(path));
  });
  return {
    asked,
    failing,
    hold: (zone: string) => holding.add(zone),
    release: (zone: string) => {
      holding.delete(zone);
      held.get(zone)?.();
    },
  };
}

function renderForm(props: Partial<Parameters<typeof PhoneForm>[0]> = {}) {
  return render(
    <PhoneForm
      action="/one_pager?gclid=1"
      next="/searching?gclid=1"
      language="en"
      defaultCountry="US"
      labels={LABELS}
      {...props}
    />,
  );
}

const field = () => screen.getByLabelText<HTMLInputElement>(LABELS.phone);
// Typed by hand: the Workers types' Element clashes with the DOM's HTMLSelectElement.
const countrySelect = () =>
  screen.getByLabelText(LABELS.country) as HTMLElement & {
    value: string;
    options: HTMLCollectionOf<HTMLOptionElement>;
  };
const locate = () => screen.getByRole('button', { name: LABELS.locate });
/** The Locate button whatever it reads (busy, it says "Please wait…"). */
const locateButton = () => document.getElementById('continue-button')!;

function describedText(input: HTMLElement): string | null {
  const id = input.getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

let zones: ReturnType<typeof zoneFiles>;

beforeEach(() => {
  zones = zoneFiles();
  navigate.mockReset();
  localStorage.clear();
  $map.set({ phone: '', phoneDisplay: '', numberData: null, initCoords: null });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('PhoneForm island (SPEC.md §2 landing: phone field and Locate)', () => {
  it('is a real form posting to the worker, with the Locate button as the Continue control', () => {
    const { container } = renderForm();
    const form = container.querySelector('form')!;
    expect(form.method).toBe('post');
    expect(form.getAttribute('action')).toBe('/one_pager?gclid=1');
    expect(locate().id).toBe('continue-button');
    expect(locate().getAttribute('type')).toBe('submit');
    expect(field().name).toBe('phone');
    expect(field().type).toBe('tel');
  });

  it('starts on the visitor’s country', () => {
    renderForm({ defaultCountry: 'DE' });
    expect(countrySelect().value).toBe('DE');
    expect(screen.getByText('DE +49')).toBeTruthy();
  });

  it('lists every country with its dial code', () => {
    renderForm();
    const options = [...countrySelect().options];
    expect(options.length).toBeGreaterThan(240);
    expect(options.find((option) => option.value === 'GB')?.textContent).toBe(
      'United Kingdom (+44)',
    );
  });

  it('formats the number as the visitor types', async () => {
    renderForm();
    await userEvent.type(field(), '2015550123');
    await waitFor(() => expect(field().value).toBe('(201) 555-0123'));
  });

  it('switches the country when the number is typed with its + prefix', async () => {
    renderForm();
    await userEvent.type(field(), '+4930123456');
    await waitFor(() => expect(countrySelect().value).toBe('DE'));
    expect(screen.getByText('DE +49')).toBeTruthy();
  });

  it('formats a number of another country than the visitor’s as its own, once its plans come', async () => {
    renderForm();
    await userEvent.type(field(), '+447400123456');
    await waitFor(() => expect(field().value).toBe('+44 7400 123456'));
    expect(screen.getByText('GB +44')).toBeTruthy();
    // The visitor's zone with the field, then the number's.
    expect(zones.asked).toEqual(['1', '34']);
  });

  it('refuses an invalid number with the message beside the field, not only a toast', async () => {
    renderForm();
    await userEvent.type(field(), '12345');
    await userEvent.click(locate());
    await waitFor(() => expect(field().getAttribute('aria-invalid')).toBe('true'));
    expect(describedText(field())).toBe(LABELS.invalid);
    expect(screen.getByRole('alert').textContent).toBe(LABELS.invalid);
    expect(document.activeElement).toBe(field());
    expect(navigate).not.toHaveBeenCalled();
    expect($map.get().phone).toBe('');
  });

  it('asks for a number when Locate is pressed with the field empty', async () => {
    renderForm();
    await userEvent.click(locate());
    expect(describedText(field())).toBe(LABELS.empty);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('refuses a number that is not valid for the selected country', async () => {
    renderForm();
    await userEvent.selectOptions(countrySelect(), 'GB');
    // A San Francisco number: valid in the US, not in the United Kingdom.
    await userEvent.type(field(), '4155550123');
    await userEvent.click(locate());
    expect(describedText(field())).toBe(LABELS.invalid);
  });

  it('clears the refusal as soon as the visitor types again', async () => {
    renderForm();
    await userEvent.click(locate());
    await userEvent.type(field(), '2');
    expect(field().getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps a valid number in $map.phone as E.164, with its display form, and moves on', async () => {
    $map.set({
      phone: '+447400123456',
      phoneDisplay: '+44 7400 123456',
      numberData: { stale: true },
      initCoords: { lat: 1, lng: 2 },
    });
    renderForm();
    await userEvent.type(field(), '2015550123');
    await userEvent.click(locate());
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/searching?gclid=1'));
    expect($map.get()).toEqual({
      phone: '+12015550123',
      phoneDisplay: '+1 201 555 0123',
      numberData: null,
      initCoords: null,
    });
    expect(localStorage.getItem('gf:map:phone')).toBe('"+12015550123"');
  });

  it('keeps the number for a country chosen in the list', async () => {
    renderForm();
    await userEvent.selectOptions(countrySelect(), 'GB');
    expect(screen.getByText('GB +44')).toBeTruthy();
    await userEvent.type(field(), '07400 123456');
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(navigate).toHaveBeenCalledOnce());
    expect($map.get().phone).toBe('+447400123456');
  });

  it('stops the submit from reaching the page script, which would move on unchecked', async () => {
    renderForm();
    const reachedDocument = vi.fn((event: Event) => event.defaultPrevented);
    document.addEventListener('submit', reachedDocument);
    await userEvent.click(locate());
    document.removeEventListener('submit', reachedDocument);
    expect(reachedDocument).toHaveReturnedWith(true);
  });
});

describe('PhoneForm numbering zones (the rules load when the visitor turns to the form)', () => {
  it('fetches nothing with the page, then only the visitor’s own zone once the field is touched', async () => {
    renderForm({ defaultCountry: 'DE' });
    expect(zones.asked).toEqual([]);
    await userEvent.click(field());
    await waitFor(() => expect(zones.asked).toEqual(['34']));
  });

  it('checks a number of a country outside the loaded zones once its plans arrive, busy meanwhile', async () => {
    zones.hold('34');
    renderForm();
    await userEvent.type(field(), '+44 7400 123456');
    await userEvent.click(locate());
    await waitFor(() => expect(zones.asked).toEqual(['1', '34']));
    expect(locateButton().textContent).toBe(LABELS.checking);
    expect(locateButton().getAttribute('aria-busy')).toBe('true');
    expect(navigate).not.toHaveBeenCalled();
    zones.release('34');
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/searching?gclid=1'));
    expect($map.get().phone).toBe('+447400123456');
    expect($map.get().phoneDisplay).toBe('+44 7400 123456');
    expect(locate().textContent).toBe(LABELS.locate);
  });

  it('says the number could not be checked when its plans fail to load, keeps it, and checks it on the next Locate', async () => {
    zones.failing.add('34');
    renderForm();
    await userEvent.type(field(), '+44 7400 123456');
    await userEvent.click(locate());
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(LABELS.loadFailed));
    expect(describedText(field())).toBe(LABELS.loadFailed);
    expect(field().value).toBe('+44 7400 123456');
    expect(locate().getAttribute('aria-busy')).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
    expect($map.get().phone).toBe('');

    zones.failing.delete('34');
    await userEvent.click(locate());
    await waitFor(() => expect(navigate).toHaveBeenCalledOnce());
    expect($map.get().phone).toBe('+447400123456');
  });

  it('loads the zone of a country chosen in the list and formats the number for it', async () => {
    renderForm();
    await userEvent.selectOptions(countrySelect(), 'BR');
    await userEvent.type(field(), '11987654321');
    await waitFor(() => expect(field().value).toBe('(11) 98765-4321'));
    // Chosen before the rules came: the visitor's own zone was never needed.
    expect(zones.asked).toEqual(['5']);
  });
});

describe('PhoneForm hydration', () => {
  it('hydrates the server HTML without a mismatch, reading the country list back from it', async () => {
    const element = (
      <PhoneForm
        action="/one_pager"
        next="/searching"
        language="de"
        defaultCountry="DE"
        labels={LABELS}
      />
    );
    const { container, serverHtml, problems } = await serverThenHydrate(element);
    expect(problems).toEqual([]);
    expect(serverHtml).toContain('Deutschland (+49)');
    expect(container.querySelector('option[value=DE]')?.hasAttribute('selected')).toBe(true);
    expect(container.querySelector('.phone-input__summary')?.textContent).toBe('DE +49');
    expect(container.querySelectorAll('option')).toHaveLength(
      new DOMParser().parseFromString(serverHtml, 'text/html').querySelectorAll('option').length,
    );
  });

  it('hydrates the page the worker answered to a refused post: text, country and error kept', async () => {
    const element = (
      <PhoneForm
        action="/one_pager"
        next="/searching"
        language="en"
        defaultCountry="US"
        labels={LABELS}
        refused={{ value: 'abc', country: 'GB', refusal: 'invalid' }}
      />
    );
    const { container, serverHtml, problems } = await serverThenHydrate(element);
    expect(problems).toEqual([]);
    expect(serverHtml).toContain(LABELS.invalid);
    const input = container.querySelector<HTMLInputElement>('input[name=phone]')!;
    expect(input.value).toBe('abc');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(input)).toBe(LABELS.invalid);
    expect(container.querySelector('.phone-input__summary')?.textContent).toBe('GB +44');
  });

  it('takes the names from the server HTML, even where the browser would name them otherwise', async () => {
    const server = renderToString(
      <PhoneForm action="/" next="/s" language="de" defaultCountry="DE" labels={LABELS} />,
      { identifierPrefix: 'i1-' },
    );
    const container = document.createElement('div');
    container.innerHTML = server;
    document.body.appendChild(container);
    const problems: string[] = [];
    const consoleError = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      problems.push(args.map(String).join(' '));
    });
    await act(async () => {
      hydrateRoot(
        container,
        <PhoneForm action="/" next="/s" language="en" defaultCountry="DE" labels={LABELS} />,
        { identifierPrefix: 'i1-', onRecoverableError: (error) => problems.push(String(error)) },
      );
    });
    consoleError.mockRestore();
    expect(problems).toEqual([]);
    expect(container.textContent).toContain('Deutschland (+49)');
  });
});

describe('serverRenderedOptions', () => {
  it('reads code, name and dial code back from the rendered options', () => {
    document.body.innerHTML =
      '<select id="c"><option value="DE">Deutschland (+49)</option><option value="US">Vereinigte Staaten (+1)</option></select>';
    expect(serverRenderedOptions('c')).toEqual([
      { code: 'DE', name: 'Deutschland', dial: '49' },
      { code: 'US', name: 'Vereinigte Staaten', dial: '1' },
    ]);
  });

  it('gives up (so the list is built afresh) when the select is missing or holds an unknown code', () => {
    document.body.innerHTML = '<select id="c"><option value="ZZ">Nowhere (+0)</option></select>';
    expect(serverRenderedOptions('c')).toBeNull();
    expect(serverRenderedOptions('missing')).toBeNull();
  });
});
