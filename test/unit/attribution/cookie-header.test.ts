import { describe, expect, it } from 'vitest';
import { cookieValues } from '../../../worker/attribution/cookie-header';

describe('every value a Cookie header gives one name', () => {
  it('in the order the browser sent them, two cookies of one name included', () => {
    expect(cookieValues('a=1; _ttp=first; b=2;_ttp=second', '_ttp')).toEqual(['first', 'second']);
  });

  it('matches the whole name only, and none in a header without it', () => {
    expect(cookieValues('x_ttp=1; _ttpx=2; _ttp =3', '_ttp')).toEqual(['3']);
    expect(cookieValues(undefined, '_ttp')).toEqual([]);
    expect(cookieValues('a=1', '_ttp')).toEqual([]);
  });

  it('reads values as getCookie does: trimmed, unquoted, decoded where that decodes', () => {
    expect(cookieValues('n= "q.1" ; n=a%3Bb; n=%E0%A4%A; n=', 'n')).toEqual([
      'q.1',
      'a;b',
      '%E0%A4%A',
      '',
    ]);
  });
});
