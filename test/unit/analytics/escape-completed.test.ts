import { beforeEach, describe, expect, it, vi } from 'vitest';
import { reportEscapeCompleted } from '../../../islands/analytics/escape-completed';
import { ESCAPE_COMPLETED_KEY } from '../../../shared/api/resume-paths';

const analytics = vi.hoisted(() => ({ emit: vi.fn() }));
vi.mock('../../../islands/analytics/emit', () => ({ emit: analytics.emit }));

function storageWith(value: string | null) {
  const items = new Map<string, string>(value === null ? [] : [[ESCAPE_COMPLETED_KEY, value]]);
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    removeItem: (key: string) => void items.delete(key),
  };
}

beforeEach(() => analytics.emit.mockReset());

describe('the way out of an in-app browser, completed', () => {
  it('is reported once, on the page the resume link opened, with the app and OS', () => {
    const storage = storageWith('{"app":"instagram","os":"ios"}');
    reportEscapeCompleted(storage);
    reportEscapeCompleted(storage);
    expect(analytics.emit.mock.calls).toEqual([
      ['in_app_escape_completed', { app: 'instagram', os: 'ios' }],
    ]);
    expect(storage.items.has(ESCAPE_COMPLETED_KEY)).toBe(false);
  });

  it('says nothing on an ordinary page, or for a damaged note (which it clears)', () => {
    reportEscapeCompleted(storageWith(null));
    const damaged = storageWith('{"app":1}');
    reportEscapeCompleted(damaged);
    reportEscapeCompleted(storageWith('not json'));
    reportEscapeCompleted(storageWith('{"app":"x","os":"windows"}'));
    expect(analytics.emit).not.toHaveBeenCalled();
    expect(damaged.items.size).toBe(0);
  });
});
