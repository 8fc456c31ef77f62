import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CONSOLE_DRAFT_API } from '../../shared/console-api/draft';
import { draftSaveRequest, reviewRequest } from '../../shared/console-api/request-schemas';
import type { ConsoleCall } from './console-client';
import { toolResult } from './tool-result';

/**
 * The tools on the token's own draft (shared/console-api/draft.ts): with a token, the worker
 * keeps each token's change set apart from the team's shared draft, so an agent's edits reach
 * visitors only once a person approves and publishes them.
 */

export function registerDraftTools(server: McpServer, call: ConsoleCall): void {
  server.registerTool(
    'draft_get',
    {
      description:
        "Your draft (the token's own change set): its revision, base, document, paused weights, editors and any review asked for it; draft is null when none was saved since the last publish, and approvalRequired says whether publishing needs a second person.",
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async () => toolResult(await call('GET', CONSOLE_DRAFT_API.draft)),
  );

  server.registerTool(
    'draft_save',
    {
      description:
        "Saves an edit of the whole document as your draft's next revision; visitors see nothing of it. Scopes: `content` for edits of the content section only, `traffic` for split, flows, routing or experiments (else the tool error token_scope). On an older revision it is merged with what came between, or refused with draft_conflict: then draft_get and edit again. Call review first to see what it would change.",
      inputSchema: {
        ...draftSaveRequest.shape,
        // An agent may leave it out: a draft with no paused variant.
        pausedWeights: draftSaveRequest.shape.pausedWeights.default({}),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    async (save) => toolResult(await call('PUT', CONSOLE_DRAFT_API.draft, save)),
  );

  server.registerTool(
    'request_approval',
    {
      description:
        'Asks a person to review and approve one revision of your draft, with a note of what to look at and why. A person approves and publishes it at the console; you cannot.',
      inputSchema: reviewRequest.shape,
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    async (review) => toolResult(await call('POST', CONSOLE_DRAFT_API.review, review)),
  );
}
