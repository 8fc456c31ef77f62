import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ConsoleCall } from './console-client';
import { registerDraftTools } from './draft-tools';
import { registerReadTools } from './read-tools';
import { registerSimulateTool } from './simulate-tool';

/**
 * The MCP server's tools over the console API. No tool publishes, rolls back or approves: the
 * worker refuses those to every token anyway (token_not_allowed), and an agent offered no such
 * tool does not try. A person reviews the agent's draft and publishes it at the console.
 */
export function consoleMcpServer(call: ConsoleCall): McpServer {
  const server = new McpServer(
    { name: 'geofunnel-console', version: '1.0.0' },
    {
      instructions:
        "Geofunnel's marketers' console: read what is live (state), results and what a visitor gets; edit your own draft (draft_get, review, draft_save) and ask a person to approve it (request_approval). Only a person publishes.",
    },
  );
  registerReadTools(server, call);
  registerDraftTools(server, call);
  registerSimulateTool(server, call);
  return server;
}
