import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';
import { walkKeyboard } from './layout-checks';

/**
 * The accessibility checks of the Chromium tests (every-screen.test.ts, the consent banner in
 * pixels.test.ts): axe-core's serious and critical findings, each control's name in Chromium's
 * own accessibility tree, and a keyboard walk with Tab.
 */

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/** Controls that need a name a screen reader can announce. */
const CONTROLS = 'button, input:not([type="hidden"]), select, textarea';

/**
 * Runs axe on the page (or inside `context`, a selector). axe is evaluated over the DevTools
 * protocol, which the page's CSP (script-src 'nonce-…' 'strict-dynamic') does not govern: the
 * page keeps its real policy while it is checked, instead of a context that bypasses it.
 */
export async function runAxe(
  page: Page,
  options: { only?: string[]; context?: string } = {},
): Promise<AxeResults> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    ({ only, context }) =>
      (window as unknown as { axe: typeof import('axe-core') }).axe.run(context ?? document, {
        resultTypes: ['violations'],
        ...(only ? { runOnly: { type: 'rule', values: only } } : {}),
      }),
    options,
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
export function seriousViolations(results: AxeResults): string[] {
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
export async function unnamedControls(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
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

/** Everything the checks above find on the page as it is now, one line each. */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  const axe = seriousViolations(await runAxe(page));
  const unnamed = await unnamedControls(page);
  const keyboard = await walkKeyboard(page);
  return [
    ...axe.map((line) => `axe: ${line}`),
    ...unnamed.map((line) => `no accessible name: ${line}`),
    ...keyboard.unreachable.map((line) => `not reachable with Tab: ${line}`),
    ...keyboard.focusInvisible.map((line) => `focus not visible: ${line}`),
  ];
}
