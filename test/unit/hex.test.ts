import { expect, it } from 'vitest';
import { hex } from '../../shared/hex';

it('writes every byte as two lowercase hex digits, leading zero kept', () => {
  expect(hex(new Uint8Array([0, 15, 16, 171, 255]))).toBe('000f10abff');
  expect(hex(new Uint8Array([]))).toBe('');
});
