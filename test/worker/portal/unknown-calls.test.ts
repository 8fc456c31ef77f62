import { describe, expect, it } from 'vitest';
import { callPortal, failureOf } from './portal-client';

describe('calls the product API does not have', () => {
  it.each([
    ['GET', '/nothing-here'],
    ['GET', '/signup'],
    ['POST', '/cf-country'],
    ['DELETE', '/users/me/payments-settings'],
  ])('answers %s %s with 404 in the error shape', async (method, path) => {
    const response = await callPortal(path, { method });
    expect(await failureOf(response)).toEqual({
      status: 404,
      code: 'not_found',
      messages: [`No such call: ${method} ${path}`],
    });
  });
});
