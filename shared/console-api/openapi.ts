/**
 * GET: the console API as an OpenAPI 3.1 document, for people's tools and agents
 * (docs/agents.md). The build writes it (scripts/console-openapi.ts); the console serves it behind
 * its Access check, to people and to tokens with `read`.
 */
export const CONSOLE_OPENAPI_PATH = '/console/api/openapi.json';
