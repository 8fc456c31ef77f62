import { parseArgs } from 'node:util';
import { httpUrlOf } from '../cli';

/**
 * The arguments of `npm run mcp` (scripts/mcp.ts): the worker's address on the command line, the
 * console token from the environment. Never the token as an argument: a process's arguments are
 * shown to every user of the machine (`ps`), its environment is not.
 */

const LOCAL_WORKER = 'http://127.0.0.1:8787';

/** A console token as the worker issues it: `gft_`, a 12-hex id, `_`, a 40-hex secret. */
const TOKEN_FORMAT = /^gft_[0-9a-f]{12}_[0-9a-f]{40}$/;

export const MCP_USAGE = `Usage: GEOFUNNEL_TOKEN=gft_… npm run --silent mcp -- --url <origin>

An MCP server on stdin and stdout for an agent working on the console's API: it reads what is
live, the results and what a visitor gets, edits its own draft and asks a person to approve it
(docs/agents.md). It cannot publish, roll back or approve: a person does that at the console.

Environment:
  GEOFUNNEL_TOKEN                   a console token a person made (docs/agents.md); required
  GEOFUNNEL_ACCESS_CLIENT_ID        with the next, a Cloudflare Access service token, for a
  GEOFUNNEL_ACCESS_CLIENT_SECRET    deployed worker whose console Access guards

Options:
  --url <origin>      the worker (default ${LOCAL_WORKER}, npm start's)
  --help              show this text`;

/** The service token Cloudflare Access lets through in front of a deployed console. */
export interface AccessServiceToken {
  clientId: string;
  clientSecret: string;
}

export interface McpTarget {
  origin: string;
  token: string;
  access: AccessServiceToken | null;
}

export type McpArgs =
  | { kind: 'run'; target: McpTarget }
  | { kind: 'help' }
  | { kind: 'usage-error'; error: string };

/** The environment variables the server reads. */
export interface McpEnvironment {
  token: string | undefined;
  accessClientId: string | undefined;
  accessClientSecret: string | undefined;
}

/** `argv` after `npm run mcp --`, and the environment. */
export function parseMcpArgs(argv: readonly string[], environment: McpEnvironment): McpArgs {
  let values: { url?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { url: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { kind: 'usage-error', error: (error as Error).message.split('. ')[0] ?? '' };
  }
  if (values.help) return { kind: 'help' };
  const text = values.url ?? LOCAL_WORKER;
  const url = httpUrlOf(text);
  if (url === null) {
    return { kind: 'usage-error', error: `--url takes the worker's http(s) origin, not "${text}"` };
  }
  const token = environment.token?.trim();
  if (!token) {
    return {
      kind: 'usage-error',
      error:
        'GEOFUNNEL_TOKEN is not set: a person makes a console token (docs/agents.md) and gives it to this server in the environment, never as an argument',
    };
  }
  if (!TOKEN_FORMAT.test(token)) {
    return {
      kind: 'usage-error',
      error: 'GEOFUNNEL_TOKEN is not a console token (gft_ followed by 12 and 40 hex digits)',
    };
  }
  const access = accessOf(environment);
  if (typeof access === 'string') return { kind: 'usage-error', error: access };
  return { kind: 'run', target: { origin: url.origin, token, access } };
}

/** Both halves of a service token, neither, or why one alone is refused. */
function accessOf(environment: McpEnvironment): AccessServiceToken | null | string {
  const clientId = environment.accessClientId?.trim();
  const clientSecret = environment.accessClientSecret?.trim();
  if (!clientId && !clientSecret) return null;
  if (!clientId || !clientSecret) {
    return 'GEOFUNNEL_ACCESS_CLIENT_ID and GEOFUNNEL_ACCESS_CLIENT_SECRET go together: set both, or neither';
  }
  return { clientId, clientSecret };
}
