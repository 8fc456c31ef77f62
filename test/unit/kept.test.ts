import { expect, it } from 'vitest';
import { keptOrMade } from '../../worker/kept';

it('makes an answer once per key and, past its capacity, lets the oldest go first', () => {
  const kept = new Map<string, string>();
  const made: string[] = [];
  const answer = (key: string) =>
    keptOrMade(kept, 2, key, () => {
      made.push(key);
      return key.toUpperCase();
    });
  expect([answer('a'), answer('a'), answer('b')]).toEqual(['A', 'A', 'B']);
  expect(made).toEqual(['a', 'b']);
  expect(answer('c')).toBe('C');
  expect([...kept.keys()]).toEqual(['b', 'c']);
  expect(answer('a')).toBe('A');
  expect(made).toEqual(['a', 'b', 'c', 'a']);
});
