import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import {
  answerTypeOf,
  consoleOpenApi,
  documentedCalls,
  untypedAnswers,
} from '../../scripts/console-openapi';
import { CONSOLE_API } from '../../shared/console-api/config';
import { CONSOLE_DRAFT_API } from '../../shared/console-api/draft';
import { CONSOLE_FUNNEL_PATH } from '../../shared/console-api/funnel';
import { CONSOLE_TOKENS_API } from '../../shared/console-api/tokens';
import { consoleRoutes } from '../../worker/console/routes';

/**
 * The console API's OpenAPI document (scripts/console-openapi.ts) is valid OpenAPI 3.1 and names
 * exactly the calls the console's sub-app answers, no more and no fewer: a call added to the
 * router and not to the document (or the reverse) fails here.
 */

/** The console sub-app's calls as its router has them, mounted at /console. */
function routedCalls(): { method: string; path: string }[] {
  const app = consoleRoutes({ liveConfig: async (_c, next) => next() });
  const calls = new Map<string, { method: string; path: string }>();
  for (const { method, path } of app.routes) {
    // Middleware on every method, and the guard's JSON-only rule for every write.
    if (method === 'ALL' || path.endsWith('/*')) continue;
    const full = `/console${path === '/' ? '' : path}`.replace(/\{\.\+\}$/, '');
    calls.set(`${method} ${full}`, { method, path: full });
  }
  return [...calls.values()];
}

const key = ({ method, path }: { method: string; path: string }) => `${method} ${path}`;

describe('the console API’s OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const result = await new Validator().validate(consoleOpenApi());
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('names every call the console answers, and none it does not', () => {
    const routed = routedCalls().map(key).sort();
    const documented = documentedCalls().map(key).sort();
    expect(documented).toEqual(routed);
    expect(routed.length).toBeGreaterThan(35);
  });

  it('says what a token needs by the worker’s own rule, and takes each body as its schema says', () => {
    const { paths } = consoleOpenApi();
    expect(paths[CONSOLE_API.state]?.get?.['x-token-scope']).toBe('read');
    expect(paths[CONSOLE_API.check]?.post?.['x-token-scope']).toBe('read');
    expect(paths[CONSOLE_API.publish]?.post?.['x-token-scope']).toBe('never');
    expect(paths[CONSOLE_DRAFT_API.draft]?.put?.['x-token-scope']).toBe('draft');
    expect(paths[CONSOLE_DRAFT_API.approve]?.post?.['x-token-scope']).toBe('never');
    expect(paths[CONSOLE_TOKENS_API.tokens]?.get?.['x-token-scope']).toBe('never');
    expect(paths[CONSOLE_API.adCosts]?.get?.['x-token-scope']).toBe('read');
    expect(paths[CONSOLE_API.adCosts]?.post?.['x-token-scope']).toBe('traffic');
    expect(paths[CONSOLE_API.adCosts]?.delete?.['x-token-scope']).toBe('traffic');
    const costs = paths[CONSOLE_API.adCosts]?.post;
    const costsBody = costs && 'requestBody' in costs ? costs.requestBody : undefined;
    expect(Object.keys(costsBody?.content ?? {})).toEqual(['application/json', 'text/csv']);
    const save = paths[CONSOLE_DRAFT_API.draft]?.put;
    const body = save && 'requestBody' in save ? save.requestBody : undefined;
    const schema = body?.content['application/json']?.schema as {
      required: string[];
      properties: Record<string, unknown>;
    };
    // The pauses default to none, as the worker takes a save without them.
    expect(schema.required.sort()).toEqual(['base', 'document', 'revision']);
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['keepMine', 'pausedWeights']),
    );
  });

  it('gives the route test’s body as the worker parses it: no other field, a click id of a network', () => {
    const { paths } = consoleOpenApi();
    const test = paths[CONSOLE_API.routeTest]?.post;
    const body = test && 'requestBody' in test ? test.requestBody : undefined;
    const schema = body?.content['application/json']?.schema as {
      additionalProperties: boolean;
      properties: { clickId: { enum: string[] }; link: { maxLength: number } };
    };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.clickId.enum).toEqual(['meta', 'tiktok', 'google', 'none']);
    expect(schema.properties.link.maxLength).toBe(4096);
  });

  it('gives each answer the schema of the interface it names, which its file exports', () => {
    const { paths, components } = consoleOpenApi();
    const named = Object.values(paths)
      .flatMap((methods) => Object.values(methods))
      .flatMap((operation) => {
        const answer = answerTypeOf(operation.responses['200'].description);
        return answer ? [answer] : [];
      });
    expect(named.length).toBeGreaterThan(30);
    for (const { name, file } of named) {
      const text = readFileSync(`shared/console-api/${file}`, 'utf8');
      expect(text, `${name} in ${file}`).toMatch(new RegExp(`export (interface|type) ${name}\\b`));
    }
    // Only the answers that carry the config document, whose sections are zod schemas' inferred
    // types, go without a schema; their requests' bodies have one.
    expect([...untypedAnswers().keys()].sort()).toEqual([
      'ChangeSetsAnswer',
      'ConsoleState',
      'CopyState',
      'DraftAnswer',
      'DraftReviewAnswer',
      'DraftSavedAnswer',
    ]);
    const funnel = paths[CONSOLE_FUNNEL_PATH]?.get?.responses['200'].content['application/json'];
    expect(funnel).toEqual({ schema: { $ref: '#/components/schemas/FunnelReportAnswer' } });
    const report = (
      components.schemas as Record<string, { properties?: object; required?: string[] }>
    ).FunnelReportAnswer;
    expect(report?.required?.sort()).toEqual([
      'campaigns',
      'currency',
      'days',
      'from',
      'ratesDate',
      'route',
      'to',
      'totals',
    ]);
  });
});
