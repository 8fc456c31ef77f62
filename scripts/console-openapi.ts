import { createGenerator } from 'ts-json-schema-generator';
import type { Plugin } from 'vite';
import * as z from 'zod';
import { adCostsRequest } from '../shared/console-api/ad-costs';
import {
  CONSOLE_ALERTS_ACKNOWLEDGE_PATH,
  CONSOLE_ALERTS_PATH,
  CONSOLE_GUARDRAILS_CHECK_PATH,
} from '../shared/console-api/alerts';
import { AD_COSTS_CSV_TYPE, CONSOLE_API, CONSOLE_PREVIEW_PATH } from '../shared/console-api/config';
import { CONSOLE_CONTENT_API } from '../shared/console-api/content';
import { CONSOLE_COPY_API } from '../shared/console-api/copy';
import { CONSOLE_DRAFT_API } from '../shared/console-api/draft';
import { CONSOLE_ERROR_CODES } from '../shared/console-api/errors';
import {
  CONSOLE_EXPERIMENTS_PATH,
  SEGMENT_DIMENSIONS,
} from '../shared/console-api/experiment-results';
import { CONSOLE_FUNNEL_PATH } from '../shared/console-api/funnel';
import { CONSOLE_OPENAPI_PATH } from '../shared/console-api/openapi';
import { CONSOLE_PICTURES_PATH } from '../shared/console-api/pictures';
import { CONSOLE_REMINDERS_PATH } from '../shared/console-api/reminders';
import * as requests from '../shared/console-api/request-schemas';
import { CONSOLE_RESULTS_PATH } from '../shared/console-api/results';
import { CONSOLE_TOKENS_API } from '../shared/console-api/tokens';
import { ANSWER_NAME } from '../shared/quiz/answers';
import { SOURCES } from '../shared/routing';
import { ACCESS_TOKEN_HEADER } from '../worker/access/console-access';
import { tokenNeeds } from '../worker/access/token-scopes';

/**
 * The console API as an OpenAPI 3.1 document (GET CONSOLE_OPENAPI_PATH), for people's tools and
 * agents (docs/agents.md): every call the console's sub-app answers (test/unit/console-openapi
 * holds the two to each other), each request body from its schema
 * (shared/console-api/request-schemas.ts), and what a console token needs to make it, read from
 * the rule the worker itself applies (worker/access/token-scopes.ts), never written twice.
 *
 * Written by the build into the static assets (consoleOpenApiAsset, below), where the console's
 * route reads it behind the Access check (worker/console/routes.ts): built in the worker it cost
 * the production bundle about 4.8 KB of gzip for a document a tool asks for once.
 */

type Method = 'get' | 'post' | 'put' | 'delete';

/** One call: its path as the router has it (`:id` for a parameter), and what it takes. */
interface Call {
  method: Method;
  path: string;
  summary: string;
  /** The interface its 200 answers (shared/console-api/), or what else it answers. */
  answers: string;
  body?: z.ZodType;
  /** Query parameters and their allowed values (any text when none are listed). */
  /** Each query parameter's values: a list, any text (null), or a list and a pattern besides. */
  query?: Record<string, QueryValues>;
  /** A page or a file rather than JSON. */
  media?: 'text/html' | 'multipart/form-data' | 'text/csv';
  /** A file the call also takes as its body, instead of `body`'s JSON. */
  file?: typeof AD_COSTS_CSV_TYPE;
}

const RESULTS_QUERY = { phase: null, format: ['json', 'csv'] } as const;

const CALLS: Call[] = [
  {
    method: 'get',
    path: '/console',
    summary: 'The console’s page',
    answers: 'HTML',
    media: 'text/html',
  },
  {
    method: 'get',
    path: CONSOLE_API.state,
    summary: 'What is live, who you are, what can be picked',
    answers: 'ConsoleState (config.ts)',
  },
  {
    method: 'post',
    path: CONSOLE_API.check,
    summary: 'What publishing a document would change; writes nothing',
    answers: 'CheckAnswer (config.ts)',
    body: requests.publishRequest,
  },
  {
    method: 'post',
    path: CONSOLE_API.publish,
    summary: 'Publishes a document as the next version',
    answers: 'PublishAnswer (config.ts)',
    body: requests.publishRequest,
  },
  {
    method: 'post',
    path: CONSOLE_API.rollback,
    summary: 'Publishes an earlier version again',
    answers: 'PublishAnswer (config.ts)',
    body: requests.rollbackRequest,
  },
  {
    method: 'get',
    path: CONSOLE_API.versions,
    summary: 'Every version, newest first, with its diff',
    answers: 'VersionsAnswer (versions.ts)',
  },
  {
    method: 'post',
    path: CONSOLE_API.routeTest,
    summary: 'Which route a visitor would get, and why',
    answers: 'RouteTestAnswer (routes.ts)',
    body: requests.routeTestRequest,
  },
  {
    method: 'post',
    path: CONSOLE_API.visitorGets,
    summary: 'What the edge serves a described visitor',
    answers: 'VisitorGetsAnswer (routes.ts)',
    body: requests.visitorGetsRequest,
  },
  {
    method: 'get',
    path: CONSOLE_API.routeVisits,
    summary: 'The last 7 days’ visits and steps by route',
    answers: 'RouteVisitsAnswer (routes.ts)',
  },
  {
    method: 'get',
    path: CONSOLE_FUNNEL_PATH,
    summary:
      'The funnel by route, source and campaign, by day, and each campaign’s cost per result',
    answers:
      'FunnelReportAnswer (funnel.ts), or with format=csv a CSV of the campaigns or the days',
    query: {
      from: null,
      to: null,
      route: null,
      format: ['json', 'csv'],
      table: ['campaigns', 'days'],
    },
  },
  {
    method: 'get',
    path: CONSOLE_DRAFT_API.draft,
    summary: 'The draft: the team’s, or a token’s own change set',
    answers: 'DraftAnswer (draft.ts)',
  },
  {
    method: 'put',
    path: CONSOLE_DRAFT_API.draft,
    summary: 'Saves an edit as the draft’s next revision, merged or refused',
    answers: 'DraftSavedAnswer (draft.ts)',
    body: requests.draftSaveRequest,
  },
  {
    method: 'post',
    path: CONSOLE_DRAFT_API.review,
    summary: 'Asks a second person to approve a revision',
    answers: 'DraftReviewAnswer (draft.ts)',
    body: requests.reviewRequest,
  },
  {
    method: 'post',
    path: CONSOLE_DRAFT_API.approve,
    summary: 'Approves a revision (not by one of its editors)',
    answers: 'DraftReviewAnswer (draft.ts)',
    body: requests.approveRequest,
  },
  {
    method: 'post',
    path: CONSOLE_DRAFT_API.restore,
    summary: 'An earlier version as the draft’s next revision',
    answers: 'DraftSavedAnswer (draft.ts)',
    body: requests.restoreRequest,
  },
  {
    method: 'get',
    path: CONSOLE_DRAFT_API.changeSets,
    summary: 'What tools and agents prepared',
    answers: 'ChangeSetsAnswer (draft.ts)',
  },
  {
    method: 'post',
    path: `${CONSOLE_DRAFT_API.changeSets}/take`,
    summary: 'A token’s change set into the team’s draft',
    answers: 'DraftSavedAnswer (draft.ts)',
    body: requests.takeChangeSetRequest,
  },
  {
    method: 'get',
    path: CONSOLE_RESULTS_PATH,
    summary: 'The split’s results',
    answers: 'ResultsAnswer (results.ts), or CSV',
    query: RESULTS_QUERY,
  },
  {
    method: 'get',
    path: `${CONSOLE_EXPERIMENTS_PATH}/:id/results`,
    summary: 'An experiment’s results, or a ramped route’s (id route:<route id>)',
    answers: 'ExperimentResultsAnswer (experiment-results.ts), or CSV',
    query: { ...RESULTS_QUERY, segment: { values: SEGMENT_DIMENSIONS, pattern: ANSWER_NAME } },
  },
  {
    method: 'post',
    path: `${CONSOLE_EXPERIMENTS_PATH}/:id/ramp`,
    summary:
      'Holds, resumes or rolls back an experiment’s ramp or a route’s (id route:<route id>), published at once',
    answers: 'PublishAnswer (config.ts)',
    body: requests.rampMoveRequest,
  },
  {
    method: 'get',
    path: CONSOLE_REMINDERS_PATH,
    summary: 'The renewal reminders the cron will ask for',
    answers: 'ScheduledRemindersAnswer (reminders.ts)',
  },
  {
    method: 'get',
    path: CONSOLE_ALERTS_PATH,
    summary: 'The alerts inbox, newest first',
    answers: 'AlertsAnswer (alerts.ts)',
  },
  {
    method: 'post',
    path: CONSOLE_ALERTS_ACKNOWLEDGE_PATH,
    summary: 'Acknowledges one alert',
    answers: 'AcknowledgeAlertAnswer (alerts.ts)',
    body: requests.acknowledgeAlertRequest,
  },
  {
    method: 'post',
    path: CONSOLE_GUARDRAILS_CHECK_PATH,
    summary: 'Runs the 15-minute check now (development and staging)',
    answers: 'GuardrailsCheckAnswer (alerts.ts)',
    body: requests.emptyRequest,
  },
  {
    method: 'get',
    path: CONSOLE_COPY_API.state,
    summary: 'Every copy key, its texts and the live overrides',
    answers: 'CopyState (copy.ts)',
  },
  {
    method: 'post',
    path: CONSOLE_COPY_API.check,
    summary: 'What publishing copy would change; writes nothing',
    answers: 'CopyCheckAnswer (copy.ts)',
    body: requests.copyPublishRequest,
  },
  {
    method: 'post',
    path: CONSOLE_COPY_API.publish,
    summary: 'Publishes copy as the next copy version',
    answers: 'CopyPublishAnswer (copy.ts)',
    body: requests.copyPublishRequest,
  },
  {
    method: 'post',
    path: CONSOLE_COPY_API.rollback,
    summary: 'Publishes an earlier copy version again',
    answers: 'CopyPublishAnswer (copy.ts)',
    body: requests.copyRollbackRequest,
  },
  {
    method: 'post',
    path: CONSOLE_COPY_API.preview,
    summary: 'Preview links that show draft copy for an hour',
    answers: 'CopyPreviewAnswer (copy.ts)',
    body: requests.copyPreviewRequest,
  },
  {
    method: 'get',
    path: CONSOLE_COPY_API.versions,
    summary: 'Every copy version, newest first',
    answers: 'CopyVersionsAnswer (copy.ts)',
  },
  {
    method: 'get',
    path: CONSOLE_CONTENT_API.catalogue,
    summary: 'The composed screens, their sections and texts',
    answers: 'ContentCatalogue (content.ts)',
  },
  {
    method: 'post',
    path: CONSOLE_CONTENT_API.preview,
    summary: 'One screen drawn from a draft content',
    answers: 'ContentPreviewAnswer (content.ts)',
    body: requests.contentPreviewRequest,
  },
  {
    method: 'post',
    path: CONSOLE_CONTENT_API.languages,
    summary: 'What other languages’ visitors see of a content’s English',
    answers: 'ContentLanguagesAnswer (content.ts)',
    body: requests.contentLanguagesRequest,
  },
  {
    method: 'post',
    path: CONSOLE_CONTENT_API.saveOfferPreview,
    summary: 'The cancel confirm drawn with a draft’s save offer',
    answers: 'SaveOfferPreviewAnswer (content.ts)',
    body: requests.saveOfferPreviewRequest,
  },
  {
    method: 'get',
    path: CONSOLE_PREVIEW_PATH,
    summary: 'A signed route preview link: opens the funnel as a preview',
    answers: 'a redirect',
    query: { route: null, end: null },
  },
  {
    method: 'get',
    path: `${CONSOLE_PREVIEW_PATH}/:variant`,
    summary: 'A preview of one variant (no assignment)',
    answers: 'a redirect',
  },
  {
    method: 'get',
    path: CONSOLE_PICTURES_PATH,
    summary: 'The picture library',
    answers: 'PictureLibraryAnswer (pictures.ts)',
  },
  {
    method: 'post',
    path: CONSOLE_PICTURES_PATH,
    summary: 'Uploads a picture to the library',
    answers: 'PictureUploadAnswer (pictures.ts)',
    media: 'multipart/form-data',
  },
  {
    method: 'delete',
    path: `${CONSOLE_PICTURES_PATH}/:id`,
    summary: 'Deletes a picture no published content uses',
    answers: '{ ok: true }',
  },
  {
    method: 'get',
    path: CONSOLE_TOKENS_API.tokens,
    summary: 'The console tokens (people only)',
    answers: 'TokensAnswer (tokens.ts)',
  },
  {
    method: 'post',
    path: CONSOLE_TOKENS_API.tokens,
    summary: 'Makes a token; its secret is answered once (people only)',
    answers: 'TokenCreatedAnswer (tokens.ts)',
    body: requests.tokenCreateRequest,
  },
  {
    method: 'post',
    path: CONSOLE_TOKENS_API.revoke,
    summary: 'Revokes a token at once (people only)',
    answers: '{ ok: true }',
    body: requests.tokenRevokeRequest,
  },
  {
    method: 'get',
    path: CONSOLE_API.adCosts,
    summary: 'The ad costs of a range of days (at most 400), also in the reporting currency',
    answers: 'AdCostsAnswer (ad-costs.ts)',
    query: { from: null, to: null },
  },
  {
    method: 'post',
    path: CONSOLE_API.adCosts,
    summary:
      'Imports ad costs, a CSV file (day,source,campaign,currency,amount) or JSON rows: all or none',
    answers: 'AdCostsImportedAnswer (ad-costs.ts); 400 AdCostsInvalidAnswer names each line',
    body: adCostsRequest,
    file: AD_COSTS_CSV_TYPE,
  },
  {
    method: 'delete',
    path: CONSOLE_API.adCosts,
    summary: 'Deletes the ad cost of one day, source and campaign',
    answers: '{ ok: true }',
    query: { day: null, source: SOURCES, campaign: null },
  },
  { method: 'get', path: CONSOLE_OPENAPI_PATH, summary: 'This document', answers: 'OpenAPI 3.1' },
];

/** The interface a call's `answers` names and its file: `Name (funnel.ts)`, else null. */
export function answerTypeOf(answers: string): { name: string; file: string } | null {
  const named = /^(\w+) \(([\w-]+\.ts)\)/.exec(answers);
  return named ? { name: named[1] ?? '', file: named[2] ?? '' } : null;
}

/**
 * The answers' JSON Schemas, read from their TypeScript interfaces in shared/console-api/ (the
 * worker's `satisfies` and the console's types hold the code to them), with every type they
 * reference; and the answers that could not be read so, with why. An answer that carries the
 * config document (its sections are zod schemas' inferred types, which the reader cannot
 * follow) keeps its name and description alone. Read once per process: about 1.5 s.
 */
let answerSchemas: { schemas: Record<string, unknown>; untyped: Map<string, string> } | undefined;

function readAnswerSchemas(calls: readonly Call[]) {
  if (answerSchemas) return answerSchemas;
  const reader = createGenerator({
    path: 'shared/console-api/*.ts',
    tsconfig: 'tsconfig.json',
    type: '*',
    expose: 'export',
    // Each answer's own schema among the definitions, under its name.
    topRef: true,
    skipTypeCheck: true,
    functions: 'hide',
  });
  const schemas: Record<string, unknown> = {};
  const untyped = new Map<string, string>();
  for (const call of calls) {
    const answer = answerTypeOf(call.answers);
    if (answer === null || answer.name in schemas || untyped.has(answer.name)) continue;
    try {
      const { definitions = {} } = reader.createSchema(answer.name);
      Object.assign(schemas, definitions);
    } catch (error) {
      untyped.set(answer.name, String(error).split('\n')[0] ?? '');
    }
  }
  // The reader refers to `#/definitions/`; OpenAPI's components live elsewhere.
  const placed = JSON.parse(
    JSON.stringify(schemas).replaceAll('"#/definitions/', '"#/components/schemas/'),
  ) as Record<string, unknown>;
  answerSchemas = { schemas: placed, untyped };
  return answerSchemas;
}

/** The answers of CALLS that the document gives no schema of, with why: for the test. */
export const untypedAnswers = (): Map<string, string> => readAnswerSchemas(CALLS).untyped;

/** A 200's content: its media, with the answer's schema where the document has it. */
function answeredContent(call: Call, media: string) {
  const answer = answerTypeOf(call.answers);
  const { schemas } = readAnswerSchemas(CALLS);
  const typed = answer !== null && answer.name in schemas && media === 'application/json';
  return {
    [media]: typed ? { schema: { $ref: `#/components/schemas/${answer.name}` } } : {},
  };
}

/** A router path as OpenAPI writes it: `:id` → `{id}`. */
const openApiPath = (path: string) => path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}');

/** The body's JSON Schema as the worker takes it, without the dialect line OpenAPI 3.1 implies. */
function schemaOf(body: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(body, {
    io: 'input',
    unrepresentable: 'any',
  });
  return schema;
}

type Content = Record<string, { schema: Record<string, unknown> }>;

/** What a call takes as its body: its JSON, and a file it also takes instead; or a form's parts. */
function requestBodyOf(call: Call): { requestBody?: { required: true; content: Content } } {
  if (call.body) {
    const content: Content = { 'application/json': { schema: schemaOf(call.body) } };
    if (call.file) content[call.file] = { schema: { type: 'string' } };
    return { requestBody: { required: true, content } };
  }
  if (call.media !== 'multipart/form-data') return {};
  return {
    requestBody: { required: true, content: { [call.media]: { schema: { type: 'object' } } } },
  };
}

type QueryValues = readonly string[] | null | { values: readonly string[]; pattern: RegExp };

/** A query parameter's schema: its list, any text, or its list or text matching a pattern. */
function querySchema(values: QueryValues) {
  if (values === null) return { type: 'string' };
  if ('pattern' in values) {
    const listed = { enum: [...values.values] };
    return { type: 'string', anyOf: [listed, { pattern: values.pattern.source }] };
  }
  return { type: 'string', enum: [...values] };
}

function operationOf(call: Call) {
  const path = openApiPath(call.path);
  const parameters = [
    ...[...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    })),
    ...Object.entries(call.query ?? {}).map(([name, values]) => ({
      name,
      in: 'query',
      required: false,
      schema: querySchema(values),
    })),
  ];
  const media = call.media ?? 'application/json';
  return {
    operationId: `${call.method}${path.replace(/[^A-Za-z0-9]+/g, '_')}`,
    summary: call.summary,
    // What a console token needs: a scope, its own change set ('draft'), or 'never' (people only).
    'x-token-scope': tokenNeeds(
      call.method.toUpperCase(),
      call.path.replace(/:\w+(\{[^}]*\})?/g, 'x'),
    ),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...requestBodyOf(call),
    responses: {
      '200': {
        description: call.answers,
        content: answeredContent(
          call,
          media === 'multipart/form-data' ? 'application/json' : media,
        ),
      },
      default: {
        description: 'A refusal: shared/console-api/errors.ts says each code',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Refusal' } } },
      },
    },
  };
}

/** The paths of CALLS, each with its methods. */
function pathsOf(calls: readonly Call[]) {
  const paths: Record<string, Record<string, ReturnType<typeof operationOf>>> = {};
  for (const call of calls) {
    const path = openApiPath(call.path);
    paths[path] = { ...paths[path], [call.method]: operationOf(call) };
  }
  return paths;
}

/** The calls the document names, as the router names them: for the test holding them equal. */
export const documentedCalls = (): { method: string; path: string }[] =>
  CALLS.map(({ method, path }) => ({ method: method.toUpperCase(), path }));

/** The document. */
export function consoleOpenApi() {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Geofunnel console API',
      version: '1',
      description:
        'The marketers’ console’s calls. A person signs in through Cloudflare Access; a tool or an agent sends a console token as a bearer credential (docs/agents.md), and x-token-scope says what each call needs of it.',
    },
    security: [{ access: [] }, { consoleToken: [] }],
    paths: pathsOf(CALLS),
    components: {
      securitySchemes: {
        access: { type: 'apiKey', in: 'header', name: ACCESS_TOKEN_HEADER },
        consoleToken: { type: 'http', scheme: 'bearer', bearerFormat: 'gft_<id>_<secret>' },
      },
      schemas: {
        ...readAnswerSchemas(CALLS).schemas,
        Refusal: {
          type: 'object',
          required: ['ok', 'error'],
          properties: {
            ok: { const: false },
            error: {
              type: 'string',
              enum: [
                ...CONSOLE_ERROR_CODES,
                'invalid_config',
                'invalid_ad_costs',
                'version_conflict',
                'draft_conflict',
              ],
            },
          },
        },
      },
    },
  };
}

/**
 * Writes the document to the client build at CONSOLE_OPENAPI_PATH. wrangler.toml's
 * run_worker_first sends every /console request to the worker first, so the file is never served
 * as a public asset: only the console's route, past the Access check, reads it through ASSETS.
 */
export function consoleOpenApiAsset(): Plugin {
  return {
    name: 'geofunnel-console-openapi',
    apply: 'build',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: CONSOLE_OPENAPI_PATH.slice(1),
        source: JSON.stringify(consoleOpenApi()),
      });
    },
  };
}
