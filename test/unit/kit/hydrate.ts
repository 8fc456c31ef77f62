import type { ReactElement } from 'react';
import { act } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { vi } from 'vitest';

/**
 * What the islands protocol does, in happy-dom: the server's HTML (with the island's
 * identifierPrefix) goes into a container, then the browser hydrates it with the same prefix.
 * Returns every hydration problem React reported (mismatches are recoverable errors or
 * console errors), so a test can insist there are none.
 */
export async function serverThenHydrate(
  element: ReactElement,
  options: { beforeHydrate?: () => void } = {},
): Promise<{ container: HTMLElement; serverHtml: string; problems: string[]; root: Root }> {
  // React warns about updates outside act() unless told this is a test environment.
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  const identifierPrefix = 'i1-';
  const serverHtml = renderToString(element, { identifierPrefix });
  const container = document.createElement('div');
  container.innerHTML = serverHtml;
  document.body.appendChild(container);
  options.beforeHydrate?.();
  const problems: string[] = [];
  const consoleError = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    problems.push(args.map(String).join(' '));
  });
  let root: Root | undefined;
  await act(async () => {
    root = hydrateRoot(container, element, {
      identifierPrefix,
      onRecoverableError: (error) => problems.push(String(error)),
    });
  });
  consoleError.mockRestore();
  return { container, serverHtml, problems, root: root! };
}
