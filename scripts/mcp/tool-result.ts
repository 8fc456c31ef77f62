import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApiAnswer } from './console-client';

/**
 * An API answer as an MCP tool's result: the JSON as text when the API said yes; when it said
 * no, a tool error (isError) whose first line is the API's error code and HTTP status with what
 * an agent can do about it, then the API's JSON. A refusal is the agent's to read, so it is
 * never thrown: a throw would end the call with the SDK's generic text, the code lost.
 */

/** What to do next, for the codes an agent meets; the API's own JSON says the rest. */
const NEXT_STEP: Record<string, string> = {
  token_invalid:
    'the token is unknown or was revoked: ask a person at the console for a new one (GEOFUNNEL_TOKEN)',
  token_scope:
    'the token lacks the scope this needs (read, content or traffic): ask a person for a token that has it, or leave this part of the document as it is',
  token_not_allowed:
    'no token may do this (publish, roll back, approve, restore, move a ramp, manage tokens): a person does it at the console',
  cross_origin:
    'the worker refused a write from outside the console page: it does not take console tokens for writes',
  draft_conflict:
    'the draft changed since your revision: call draft_get, make the edit again on the newest revision (or save with keepMine)',
  version_conflict:
    'someone published since your base: call state and start again from head.seq and the live document',
  invalid_config: 'the document was refused: `errors` names each field and why',
  bad_request: 'the call was not one the API takes: check the arguments against the tool schema',
  rate_limited: 'too many saves for now: wait a minute and save once with the whole edit',
  unreachable: 'nothing answers at the worker address: is the worker running (npm start)?',
  timeout: 'the worker did not answer in time: try again once',
  not_development:
    "simulate runs only on npm start's development worker; a deployed one has no simulator",
  http_302:
    'Cloudflare Access sent the call to its sign-in: set GEOFUNNEL_ACCESS_CLIENT_ID and GEOFUNNEL_ACCESS_CLIENT_SECRET',
};

export function toolResult(answer: ApiAnswer): CallToolResult {
  const json = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
  if (answer.ok) return { content: [{ type: 'text', text: json }] };
  const next = NEXT_STEP[answer.error];
  const status = answer.status === 0 ? 'no answer' : `HTTP ${answer.status}`;
  return {
    isError: true,
    content: [
      { type: 'text', text: `${answer.error} (${status})${next ? `: ${next}` : ''}` },
      { type: 'text', text: json },
    ],
  };
}
