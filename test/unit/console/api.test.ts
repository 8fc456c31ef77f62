import { describe, expect, it } from 'vitest';
import { refusalOf } from '../../../console/kit/api';
import { failureText } from '../../../console/kit/error-texts';
import { consoleState } from './fixtures';

describe('what a refused console call means', () => {
  it('a 400 invalid_config names the fields', () => {
    const errors = [{ path: 'split.variants', message: 'weights must add up…' }];
    expect(refusalOf(400, { ok: false, error: 'invalid_config', errors })).toEqual({
      kind: 'invalid',
      errors,
    });
  });

  it('a 409 version_conflict carries the head and what changed since the base', () => {
    const head = { ...consoleState().head!, seq: 3, id: 'v3' };
    const changes = [{ path: 'split.variants.lp17.weight', kind: 'changed', before: 20, after: 5 }];
    expect(refusalOf(409, { ok: false, error: 'version_conflict', head, changes })).toEqual({
      kind: 'conflict',
      head,
      changes,
    });
  });

  it('any other code is a failure with its own text; an unknown answer is unreadable', () => {
    expect(refusalOf(503, { ok: false, error: 'config_store_failed' })).toEqual({
      kind: 'failed',
      failure: 'config_store_failed',
    });
    expect(refusalOf(403, { ok: false, error: 'access_token_invalid' })).toEqual({
      kind: 'failed',
      failure: 'access_token_invalid',
    });
    expect(refusalOf(500, { error: 'something_new' })).toEqual({
      kind: 'failed',
      failure: 'unreadable',
    });
    expect(refusalOf(400, null)).toEqual({ kind: 'failed', failure: 'unreadable' });
    expect(failureText('config_store_failed')).toMatch(/nothing was published/);
  });
});
