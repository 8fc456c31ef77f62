import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { MCP_USAGE, parseMcpArgs } from './mcp/arguments';
import { consoleClient } from './mcp/console-client';
import { consoleMcpServer } from './mcp/server';

/**
 * `GEOFUNNEL_TOKEN=gft_… npm run --silent mcp -- --url <origin>`: the console's API as an MCP
 * server on stdin and stdout (./mcp/server.ts), for an agent's client to start (docs/agents.md).
 * While it serves, stdout carries the protocol alone: what it says goes to stderr (and npm's own
 * banner is kept off stdout by --silent).
 */
const args = parseMcpArgs(process.argv.slice(2), {
  token: process.env.GEOFUNNEL_TOKEN,
  accessClientId: process.env.GEOFUNNEL_ACCESS_CLIENT_ID,
  accessClientSecret: process.env.GEOFUNNEL_ACCESS_CLIENT_SECRET,
});
if (args.kind === 'help') {
  console.log(MCP_USAGE);
} else if (args.kind === 'usage-error') {
  console.error(`error: ${args.error}\n\n${MCP_USAGE}`);
  process.exitCode = 2;
} else {
  const server = consoleMcpServer(consoleClient(args.target));
  await server.connect(new StdioServerTransport());
  console.error(`Geofunnel console MCP server on stdio, calling ${args.target.origin}`);
}
