import { expect, it } from 'vitest';
import { $app } from '../../islands/stores/app';
import { $error, showError } from '../../islands/stores/error';
import { $loader } from '../../islands/stores/loader';
import { $signup } from '../../islands/stores/signup';

it('refuses store writes on the worker, where module scope is shared between visitors', () => {
  expect(() => showError('leaks to the next visitor')).toThrow(/written on the worker/);
  expect(() => $signup.setKey('email', 'a@b.c')).toThrow(/written on the worker/);
  expect(() => $app.set({ flow: 'x', timerSeconds: null })).toThrow(/written on the worker/);
  expect(() => $loader.setKey('enabled', true)).toThrow(/written on the worker/);
  expect($error.get()).toEqual({ show: false, message: '' });
  expect($signup.get().email).toBe('');
});
