import { env } from 'cloudflare:workers';
import { expect, vi } from 'vitest';
import { createPortal } from '../../../portal/app';
import type { PortalBindings } from '../../../portal/env';
import { ApiErrorBody, PollingResultResponse, SignupResponse } from '../../../shared/api/contract';

/** The origin the worker gives its in-process requests to the embedded portal. */
const PORTAL_ORIGIN = 'https://portal.internal';

/**
 * One call to a fresh portal instance on this file's real D1, as the worker makes it. Every
 * call builds a new portal, so nothing but D1 carries state from one call to the next.
 */
export function callPortal(
  path: string,
  init: RequestInit = {},
  bindings: Partial<PortalBindings> = {},
): Promise<Response> {
  return Promise.resolve(
    createPortal().fetch(new Request(`${PORTAL_ORIGIN}${path}`, init), { ...env, ...bindings }),
  );
}

export function postJson(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return callPortal(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** A unique address per call: the tests of one file share its database. */
export function freshEmail(): string {
  return `visitor-${crypto.randomUUID()}@example.test`;
}

export function signupBody(overrides: Record<string, unknown> = {}) {
  return {
    registration_source: 'email',
    email: freshEmail(),
    user_uuid: crypto.randomUUID(),
    landing_type: 'one_pager',
    name: 'Ann Example',
    ...overrides,
  };
}

/** Signs a new visitor up and answers the portal's tokens, checked against the contract. */
export async function signUp(overrides: Record<string, unknown> = {}) {
  const response = await postJson('/signup', signupBody(overrides));
  expect(response.status).toBe(200);
  const { data } = SignupResponse.parse(await response.json());
  return {
    accessToken: data.access_token,
    deeplinkToken: data.deeplink_token,
    userId: data.entity.external_user_id,
  };
}

/**
 * A charge's polling result once it is final: asked again, as the checkout does, for as long as
 * the portal answers 202 (its result not yet ready), never a fixed wait.
 */
export async function finalPollingResult(pollingId: string) {
  return vi.waitFor(
    async () => {
      const response = await callPortal(`/polling/get-result/${pollingId}`);
      if (response.status === 202) throw new Error(`polling result ${pollingId} still pending`);
      return { status: response.status, body: PollingResultResponse.parse(await response.json()) };
    },
    { timeout: 20_000, interval: 50 },
  );
}

/** The status and the messages of a failed call, its body checked against the contract. */
export async function failureOf(response: Response) {
  const body = ApiErrorBody.parse(await response.json());
  return { status: response.status, code: body.code, messages: body.errors.messages };
}

/** Switches the emulator's failure on the way a test of another layer does: a row in D1. */
export async function failNext(call: string, remaining: number): Promise<void> {
  await env.PORTAL_DB.prepare(
    'INSERT OR REPLACE INTO emulator_faults (call, remaining) VALUES (?, ?)',
  )
    .bind(call, remaining)
    .run();
}

/**
 * A Google ID token as the worker forwards it once it has verified it. The emulator reads only
 * the payload, so the signature here is a placeholder.
 */
export function googleIdToken(payload: Record<string, unknown>): string {
  const encode = (value: unknown) =>
    btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(value))))
      .replaceAll('+', '-')
      .replaceAll('/', '_')
      .replace(/=+$/, '');
  return `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode(payload)}.c2lnbmF0dXJl`;
}
