// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadExternalScript } from '../../../islands/kit/external-script';

/**
 * happy-dom never fetches scripts here: it fires `load` or `error` on the spot, as its setting
 * says. That is enough to see what the loader does with each.
 */
function scriptsLoad(succeed: boolean) {
  const { settings } = (window as unknown as { happyDOM: { settings: Record<string, unknown> } })
    .happyDOM;
  settings.handleDisabledFileLoadingAsSuccess = succeed;
  // happy-dom reports the refused fetch on the console; the test looks at the events instead.
  vi.spyOn(console, 'error').mockImplementation(() => {});
}

const scripts = () => [...document.head.querySelectorAll('script')];

afterEach(() => {
  vi.restoreAllMocks();
  for (const script of scripts()) script.remove();
});

describe('loadExternalScript (SPEC.md §4: idle → loading → ready | error)', () => {
  it('adds one async script, ready once it has run, and never adds it twice', async () => {
    scriptsLoad(true);
    const load = loadExternalScript('https://scripts.example/a.js');
    await expect(load).resolves.toBeUndefined();
    expect(scripts().map((s) => [s.src, s.async])).toEqual([
      ['https://scripts.example/a.js', true],
    ]);
    expect(loadExternalScript('https://scripts.example/a.js')).toBe(load);
    expect(scripts()).toHaveLength(1);
  });

  it('fails when the script cannot load, and a later call tries again', async () => {
    scriptsLoad(false);
    const first = loadExternalScript('https://scripts.example/b.js');
    await expect(first).rejects.toThrow('https://scripts.example/b.js did not load');
    expect(scripts()).toHaveLength(0);
    scriptsLoad(true);
    const second = loadExternalScript('https://scripts.example/b.js');
    expect(second).not.toBe(first);
    await expect(second).resolves.toBeUndefined();
    expect(scripts()).toHaveLength(1);
  });
});
