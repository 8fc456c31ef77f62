import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREEN_IDS } from '../../shared/screens';
import { DEFAULT_THEME, THEMES } from '../../shared/theme';
import { type BrowserSession, startBrowserSession } from './harness';
import { newRenderContext, openSettledScreen, walkKeyboard } from './layout-checks';

/**
 * Accessibility of every screen in Chromium: axe-core finds no serious or critical violation,
 * every control has an accessible name in the browser's own accessibility tree, and a keyboard
 * user reaches every control with Tab and sees where focus is.
 */

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** Controls that need a name a screen reader can announce. */
const CONTROLS = 'button, input:not([type="hidden"]), select, textarea';

/** A landing and a checkout: between them they hold most of the shared building blocks. */
const THEMED_SCREENS = ['one_pager', 'checkout_v3_tr'] as const;

let session: BrowserSession;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  session = await startBrowserSession();
  // addScriptTag({ path }) inlines axe as a script without the page's nonce, which the page's
  // CSP (script-src 'nonce-…' 'strict-dynamic') would block; this context alone bypasses the
  // CSP so axe can run. The CSP itself is checked in page-behaviour.test.ts.
  context = await newRenderContext(session.browser, session.worker.url.href, 350, {
    bypassCSP: true,
  });
  page = await context.newPage();
});
afterAll(async () => {
  await context?.close();
  await session?.stop();
});

async function runAxe(options: { only?: string[] } = {}): Promise<AxeResults> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_SOURCE });
  return page.evaluate(
    (only) =>
      (window as unknown as { axe: typeof import('axe-core') }).axe.run(document, {
        resultTypes: ['violations'],
        ...(only ? { runOnly: { type: 'rule', values: only } } : {}),
      }),
    options.only,
  );
}

/** axe's failure summary without its "Fix any of the following:" headings, on one line. */
function summary(text: string | undefined): string {
  return (text ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !/^Fix (any|all) of the following:$/.test(line))
    .join('; ');
}

/** The violations a visitor relying on assistive technology would be stopped or hurt by. */
function seriousViolations(results: AxeResults): string[] {
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) =>
      violation.nodes.map(
        (node) =>
          `${violation.id} (${violation.impact}) ${node.target.join(' ')}: ${summary(node.failureSummary) || violation.help}`,
      ),
    );
}

/**
 * Each control's name as Chromium computes it for screen readers (the accessibility tree, over
 * the DevTools protocol): a control exposed to assistive technology with an empty name fails.
 */
async function unnamedControls(): Promise<string[]> {
  const cdp = await context.newCDPSession(page);
  try {
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const byBackendId = new Map(nodes.map((node) => [node.backendDOMNodeId, node]));
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeIds } = await cdp.send('DOM.querySelectorAll', {
      nodeId: root.nodeId,
      selector: CONTROLS,
    });
    const unnamed: string[] = [];
    for (const nodeId of nodeIds) {
      const { node } = await cdp.send('DOM.describeNode', { nodeId });
      const exposed = byBackendId.get(node.backendNodeId);
      if (!exposed || exposed.ignored) continue;
      if (String(exposed.name?.value ?? '').trim() !== '') continue;
      // DevTools lists attributes as a flat [name, value, name, value, …] array.
      const flat = node.attributes ?? [];
      const attributes = new Map(
        flat.flatMap((name, i) => (i % 2 === 0 ? [[name, flat[i + 1] ?? ''] as const] : [])),
      );
      const shown = ['id', 'class', 'type', 'name']
        .filter((name) => attributes.get(name))
        .map((name) => `[${name}="${attributes.get(name)}"]`)
        .join('');
      unnamed.push(`${node.localName}${shown} (role ${exposed.role?.value ?? '?'})`);
    }
    return unnamed;
  } finally {
    await cdp.detach();
  }
}

async function accessibilityProblems(): Promise<string[]> {
  const axe = seriousViolations(await runAxe());
  const unnamed = await unnamedControls();
  const keyboard = await walkKeyboard(page);
  return [
    ...axe.map((line) => `axe: ${line}`),
    ...unnamed.map((line) => `no accessible name: ${line}`),
    ...keyboard.unreachable.map((line) => `not reachable with Tab: ${line}`),
    ...keyboard.focusInvisible.map((line) => `focus not visible: ${line}`),
  ];
}

describe('the accessibility checks themselves', () => {
  it('flag an unnamed input, a hidden focus ring and a control behind a keyboard trap', async () => {
    await page.setContent(`<!doctype html><html lang="en"><head><title>Bad</title><style>
      .plain:focus { outline: none }
    </style></head><body><main><h1>Bad page</h1>
      <input id="nameless" type="email">
      <button class="plain" type="button">No ring</button>
      <input id="trap" aria-label="Trap" onkeydown="if (event.key === 'Tab') event.preventDefault()">
      <a href="#after" id="after">Behind the trap</a>
    </main></body></html>`);
    const axe = await runAxe();
    expect(axe.violations.map((violation) => violation.id)).toContain('label');
    expect(await unnamedControls()).toEqual(['input[id="nameless"][type="email"] (role textbox)']);
    const keyboard = await walkKeyboard(page);
    expect(keyboard.order).toEqual([
      'input#nameless',
      'main > button.plain "No ring"',
      'input#trap',
    ]);
    expect(keyboard.focusInvisible).toEqual(['main > button.plain "No ring"']);
    expect(keyboard.unreachable).toEqual(['a#after "Behind the trap"']);
  });

  it('pass named controls whose focus shows as an outline, a shadow or a ring around them', async () => {
    await page.setContent(`<!doctype html><html lang="en"><head><title>Good</title><style>
      .shadow { box-shadow: 0 1px 2px #0003 } .shadow:focus { outline: none; box-shadow: 0 0 0 3px #2f6bff }
      .field { display: flex; border: 1px solid #555 } .field:focus-within { box-shadow: 0 0 0 3px #2f6bff }
      .field input:focus { outline: none }
    </style></head><body><main><h1>Good page</h1>
      <label>Email <input type="email" name="email"></label>
      <button class="shadow" type="button">Shadow ring</button>
      <div class="field"><input aria-label="Phone number" type="tel"></div>
      <fieldset><legend>Plan</legend>
        <label><input type="radio" name="plan" checked> Monthly</label>
        <label><input type="radio" name="plan"> Quarterly</label>
      </fieldset>
      <button type="button" tabindex="-1">Out of the tab order on purpose</button>
      <button type="button" disabled>Disabled</button>
      <a href="#top">Default ring</a>
    </main></body></html>`);
    expect(seriousViolations(await runAxe())).toEqual([]);
    expect(await unnamedControls()).toEqual([]);
    const keyboard = await walkKeyboard(page);
    expect(keyboard.unreachable).toEqual([]);
    expect(keyboard.focusInvisible).toEqual([]);
    expect(keyboard.order).toHaveLength(5);
  });
});

describe(`every screen at 350px (theme ${DEFAULT_THEME})`, () => {
  it.each(SCREEN_IDS)(
    '%s: no serious axe violation, every control named, reachable by Tab, focus visible',
    async (screen) => {
      await openSettledScreen(page, `/${screen}`);
      expect(await accessibilityProblems()).toEqual([]);
    },
  );
});

describe('colour contrast in the other themes', () => {
  const renders = THEMES.filter((theme) => theme !== DEFAULT_THEME).flatMap((theme) =>
    THEMED_SCREENS.map((screen) => [theme, screen] as const),
  );
  it.each(renders)(
    '%s %s: text contrast meets WCAG AA (axe color-contrast)',
    async (theme, screen) => {
      await openSettledScreen(page, `/${screen}?theme=${theme}`);
      expect(seriousViolations(await runAxe({ only: ['color-contrast'] }))).toEqual([]);
    },
  );
});
