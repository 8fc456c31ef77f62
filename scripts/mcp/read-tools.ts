import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { CONSOLE_API } from '../../shared/console-api/config';
import {
  CONSOLE_EXPERIMENTS_PATH,
  SEGMENT_DIMENSIONS,
} from '../../shared/console-api/experiment-results';
import { publishRequest, visitorGetsRequest } from '../../shared/console-api/request-schemas';
import { CONSOLE_RESULTS_PATH } from '../../shared/console-api/results';
import { ANSWER_NAME } from '../../shared/quiz/answers';
import type { ConsoleCall } from './console-client';
import { toolResult } from './tool-result';

/** The tools that read and write nothing (the token's `read` scope). */

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

export function registerReadTools(server: McpServer, call: ConsoleCall): void {
  server.registerTool(
    'state',
    {
      description:
        'What visitors get now: the live config document (split, flows, routing, experiments, content), the last published version (head, whose seq is the base of a new draft), drift, the screens a flow may list, and who you are (author, token:<name>). Call it first.',
      annotations: READ_ONLY,
    },
    async () => toolResult(await call('GET', CONSOLE_API.state)),
  );

  server.registerTool(
    'results',
    {
      description:
        "An experiment's results (each variant's visitors, steps, revenue, lifts, intervals, p-values and verdicts) in its live phase or an earlier one; without `experiment`, the split's. Experiment ids are the keys of state's live.experiments.experiments.",
      inputSchema: {
        experiment: z
          .string()
          .min(1)
          .max(64)
          .optional()
          .describe(
            "An experiment's id, or route:<route id> for a ramped route; absent: the split",
          ),
        phase: z
          .number()
          .int()
          .positive()
          .optional()
          .describe('An earlier phase; absent: the live one'),
        segment: z
          .union([z.enum(SEGMENT_DIMENSIONS), z.string().regex(ANSWER_NAME)])
          .optional()
          .describe(
            'Adds the results by this segment (an experiment only, not the split): a dimension captured at exposure, or answer:<key> for a quiz question’s choices',
          ),
      },
      annotations: READ_ONLY,
    },
    async ({ experiment, phase, segment }) => {
      const query = new URLSearchParams();
      if (phase !== undefined) query.set('phase', String(phase));
      if (segment !== undefined) query.set('segment', segment);
      const path =
        experiment === undefined
          ? CONSOLE_RESULTS_PATH
          : `${CONSOLE_EXPERIMENTS_PATH}/${encodeURIComponent(experiment)}/results`;
      return toolResult(await call('GET', query.size > 0 ? `${path}?${query}` : path));
    },
  );

  server.registerTool(
    'visitor_gets',
    {
      description:
        'What the edge would serve one described visitor, by its own code: the route, each experiment arm and how it was drawn, the flow and its screens, the plans and offer terms. Under `document` (a draft) or, without it, the live config. Writes nothing.',
      inputSchema: visitorGetsRequest.shape,
      annotations: READ_ONLY,
    },
    async (visitor) => toolResult(await call('POST', CONSOLE_API.visitorGets, visitor)),
  );

  server.registerTool(
    'review',
    {
      description:
        'What publishing `document` would change, writing nothing: the diff, a new phase of the split or an experiment (restarting its results), warnings, what other languages will show, the screens that change for whom, and whether a second person must approve. Refused with invalid_config and each field when the document would not publish.',
      inputSchema: { base: publishRequest.shape.base, document: publishRequest.shape.document },
      annotations: READ_ONLY,
    },
    async (edit) => toolResult(await call('POST', CONSOLE_API.check, edit)),
  );
}
