import type { Context } from 'hono';
import type { z } from 'zod';
import { issueTexts } from '../shared/validation-issues';
import { PortalError } from './portal-error';

/**
 * The request body parsed as JSON and checked against a contract schema (shared/api/contract.ts),
 * or a thrown 400 (unlike the worker's readJsonBody, which only parses and leaves the checking
 * to its caller, as the worker stamps the visitor's ids in first).
 * A body that is not JSON or not of the shape answers 400 with one readable message per problem,
 * as the product API answers `errors.messages` (SPEC.md §7).
 */
export async function validJsonBody<S extends z.ZodType>(
  c: Context,
  schema: S,
): Promise<z.output<S>> {
  let json: unknown;
  try {
    json = JSON.parse(await c.req.text());
  } catch {
    throw new PortalError(400, 'invalid_body', 'The request body must be a JSON object.');
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  throw new PortalError(400, 'invalid_body', issueTexts(parsed.error, null));
}
