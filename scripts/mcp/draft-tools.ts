import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { CONSOLE_DRAFT_API } from '../../shared/console-api/draft';
import type { ConsoleCall } from './console-client';
import { base, configDocument } from './document-schema';
import { toolResult } from './tool-result';

/**
 * The tools on the token's own draft (shared/console-api/draft.ts): with a token, the worker
 * keeps each token's change set apart from the team's shared draft, so an agent's edits reach
 * visitors only once a person approves and publishes them.
 */

/** Which revision an edit or a review is of: 0 when no draft was saved yet. */
const revision = z
  .number()
  .int()
  .min(0)
  .describe(
    'The draft revision this starts from: draft.revision from draft_get, 0 when draft is null',
  );

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
        revision,
        base,
        document: configDocument,
        pausedWeights: z
          .record(z.string(), z.number())
          .default({})
          .describe(
            'The weights of variants paused in this draft, as draft_get returns them ({} when none)',
          ),
        keepMine: z
          .boolean()
          .optional()
          .describe(
            'After a draft_conflict: merge, keeping your values where both changed the same place',
          ),
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
      inputSchema: {
        revision: z
          .number()
          .int()
          .positive()
          .describe('The revision draft_save answered (draft.revision)'),
        note: z
          .string()
          .max(500)
          .optional()
          .describe(
            'What the reviewer should look at, and why the change (500 characters at most)',
          ),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    async (review) => toolResult(await call('POST', CONSOLE_DRAFT_API.review, review)),
  );
}
