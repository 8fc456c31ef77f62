import { describe, expect, it } from 'vitest';
import { isolatePromises } from '../../scripts/isolate-promises';

/** Planted files, each given as its lines. */
function planted(files: Record<string, readonly string[]>) {
  return Object.entries(files).map(([path, lines]) => ({ path, text: lines.join('\n') }));
}

describe('no worker module keeps a promise for later requests (npm run check)', () => {
  it('refuses a module-level promise however its type is written', () => {
    const refused = isolatePromises(
      planted({
        'worker/experiments/store/legacy.ts': [
          'let legacyCheck: { at: number; held: Promise<boolean> } | null = null;',
        ],
        'worker/config/load.ts': ['const loads = new Map<string, Promise<Config>>();'],
        'portal/store/once.ts': ['let ready: PromiseLike<void> | undefined;'],
        'worker/geocode/cache.ts': ['export const pending: Array<Promise<unknown>> = [];'],
      }),
    );
    expect(refused.map(({ path, name }) => `${path} ${name}`)).toEqual([
      'worker/experiments/store/legacy.ts legacyCheck',
      'worker/config/load.ts loads',
      'portal/store/once.ts ready',
      'worker/geocode/cache.ts pending',
    ]);
    expect(refused[0]?.message).toMatch(/workerd never settles it/);
  });

  it('lets kept answers, promises inside functions, the listed kept-alive load and the browser pass', () => {
    const refused = isolatePromises(
      planted({
        'worker/experiments/store/legacy.ts': [
          'let legacyCheck: { at: number; held: boolean } | null = null;',
          'export async function check(): Promise<boolean> {',
          '  const asked: Promise<boolean> = ask();',
          '  return asked;',
          '}',
        ],
        'worker/translations/source.ts': ['const loading = new Map<string, Promise<boolean>>();'],
        'islands/kit/external-script.ts': ['const loads = new Map<string, Promise<void>>();'],
      }),
    );
    expect(refused).toEqual([]);
  });
});
