import { type Handler, Hono } from 'hono';
import * as z from 'zod';
import { CONSOLE_PREVIEW_PATH } from '../../shared/console-api/config';
import type {
  CopyCheckAnswer,
  CopyPreviewAnswer,
  CopyPublishAnswer,
  CopyState,
  CopyVersionsAnswer,
} from '../../shared/console-api/copy';
import {
  copyPreviewRequest,
  copyPublishRequest,
  copyRollbackRequest,
} from '../../shared/console-api/request-schemas';
import { gateOf } from '../alerts/break-glass';
import type { FunnelConfig } from '../config/load';
import { kvLiveKeys } from '../config/publish';
import { d1Runner } from '../config/versions';
import { contentLanguageNotes, copyLanguageNotes } from '../content/languages';
import type { Bindings } from '../env';
import { isProduction } from '../environment';
import { readJsonBody } from '../http/api-json';
import { consoleError } from '../http/console-errors';
import { SUPPORTED_LANGUAGES } from '../i18n';
import { previewKey } from '../preview/preview';
import type { ConsoleEnv } from '../request/envs';
import { copyCatalogue } from '../translations/copy-catalogue';
import { checkCopyDocument, diffCopy } from '../translations/copy-document';
import { copySummaryOf, copyVersionStore } from '../translations/copy-versions';
import {
  type CopyStores,
  previewCopy,
  publishCopy,
  readLiveCopy,
  rollbackCopy,
} from '../translations/publish-copy';
import { DRAFT_PARAMETER, shippedTextFor, storeDraft } from '../translations/source';
import { clearanceOf, noteOf, refusedAnswer } from './publish-request';
import { contentHistory, copyHistory } from './translation-history';

/**
 * The console's Copy area (shared/console-api/copy.ts), mounted at `/api/copy` inside the
 * console's routes, so the Access check, the same-origin guard for writes, the JSON-only body
 * and its size limit are the console's own (worker/console/routes.ts).
 */

/** How many copy versions the history shows. */
const HISTORY_LIMIT = 200;

function storesOf(env: Bindings): CopyStores {
  return {
    versions: copyVersionStore(d1Runner(env.CONFIG_DB)),
    live: kvLiveKeys(env.FUNNEL_CONFIG),
    gate: gateOf(env),
  };
}

/**
 * The funnel's first screen in each language, as a preview: `custom_lng` is honoured outside
 * production only (SPEC.md §2); in production the page language is the browser's, so each
 * language's link is the plain preview.
 */
function pagesOf(
  defaultVariant: string,
  production: boolean,
  draft?: string,
): Record<string, string> {
  const preview = `${CONSOLE_PREVIEW_PATH}/${encodeURIComponent(defaultVariant)}`;
  return Object.fromEntries(
    SUPPORTED_LANGUAGES.map((code) => {
      const query = new URLSearchParams(production ? {} : { custom_lng: code });
      if (draft !== undefined) query.set(DRAFT_PARAMETER, draft);
      const search = query.toString();
      return [code, search ? `${preview}?${search}` : preview];
    }),
  );
}

export function copyRoutes(options: { now: () => number }) {
  const { now } = options;
  const app = new Hono<ConsoleEnv>();
  app.get('/', showCopyState);
  app.post('/check', checkCopyEdit);
  app.post('/publish', publishCopyEdit(now));
  app.post('/rollback', rollBackCopy(now));
  // The draft as pages would show it, before any publish: stored for the hour a preview lasts,
  // and shown by the preview links answered (worker/translations/source.ts).
  app.post('/preview', previewCopyDraft(now));
  app.get('/versions', listCopyVersions);
  return app;
}

/** The funnel's first screen in each language, for this request's config and worker. */
function requestPages(
  visit: { env: Bindings; config: FunnelConfig },
  draft?: string,
): Record<string, string> {
  return pagesOf(visit.config.split.defaultVariant, isProduction(visit.env), draft);
}

const showCopyState: Handler<ConsoleEnv> = async function showCopyState(c) {
  const stores = storesOf(c.env);
  const [head, live] = await Promise.all([stores.versions.head(), readLiveCopy(stores.live)]);
  const drift = !live.ok
    ? `KV's copy cannot be read (${live.error}): the edge shows the bundled text`
    : head !== null && live.timestamp !== head.timestamp
      ? `KV's copy is not ${head.id}: it was written without the console or npm run translations`
      : null;
  const pages = requestPages({ env: c.env, config: c.get('config') });
  const inEffect = live.ok ? live.copy : (head?.copy ?? {});
  // The to-do: what is outdated now, read against the versions before (translation-history.ts).
  const { content } = c.var.config;
  const [copied, contents] = await Promise.all([
    copyHistory(stores.versions, inEffect),
    contentHistory(c.env, content),
  ]);
  const answer: CopyState = {
    ...(await copyCatalogue(shippedTextFor(c))),
    live: inEffect,
    outdated: [...copyLanguageNotes(inEffect, copied), ...contentLanguageNotes(content, contents)],
    head: head && copySummaryOf(head),
    drift,
    pages,
  };
  return c.json(answer);
};

/**
 * A copy publish's or check's body as the document gives it, its copy left to the copy's own
 * rules, which answer invalid_config with each field's path.
 */
const copyPublishBody = copyPublishRequest.extend({ copy: z.unknown() });

const checkCopyEdit: Handler<ConsoleEnv> = async function checkCopyEdit(c) {
  const parsed = copyPublishBody.safeParse(await readJsonBody(c.req.raw));
  if (!parsed.success) return consoleError(c, 400, 'bad_request');
  const outcome = await previewCopy(storesOf(c.env), parsed.data.base, parsed.data.copy);
  if (outcome.kind !== 'preview') return refusedAnswer(c, outcome);
  const answer: CopyCheckAnswer = {
    ok: true,
    diff: outcome.diff,
    languages: copyLanguageNotes(outcome.copy, outcome.before ? [outcome.before] : []),
  };
  return c.json(answer);
};

function publishCopyEdit(now: () => number): Handler<ConsoleEnv> {
  return async function publishCopyEditHandler(c) {
    const parsed = copyPublishBody.safeParse(await readJsonBody(c.req.raw));
    if (!parsed.success) return consoleError(c, 400, 'bad_request');
    const body = parsed.data;
    const note = noteOf(body.note);
    const outcome = await publishCopy(storesOf(c.env), {
      base: body.base,
      copy: body.copy,
      author: c.get('consoleAuthor'),
      note,
      source: 'console',
      clearance: clearanceOf(body, note),
      now: new Date(now()),
    });
    if (outcome.kind !== 'published') return refusedAnswer(c, outcome);
    c.get('logFields').copy_version = outcome.version.id;
    const answer: CopyPublishAnswer = { ok: true, version: outcome.version };
    return c.json(answer);
  };
}

function rollBackCopy(now: () => number): Handler<ConsoleEnv> {
  return async function rollBackCopyHandler(c) {
    const parsed = copyRollbackRequest.safeParse(await readJsonBody(c.req.raw));
    if (!parsed.success) return consoleError(c, 400, 'bad_request');
    const body = parsed.data;
    const request = { base: body.base, seq: body.seq, note: noteOf(body.note) };
    const outcome = await rollbackCopy(storesOf(c.env), {
      ...request,
      author: c.get('consoleAuthor'),
      clearance: clearanceOf(body, request.note),
      now: new Date(now()),
    });
    if (outcome.kind === 'unknown_version') return consoleError(c, 404, 'unknown_version');
    if (outcome.kind !== 'published') return refusedAnswer(c, outcome);
    c.get('logFields').copy_version = outcome.version.id;
    const answer: CopyPublishAnswer = { ok: true, version: outcome.version };
    return c.json(answer);
  };
}

/** A copy preview's body as the document gives it, its copy left to the copy's own rules. */
const copyPreviewBody = copyPreviewRequest.extend({ copy: z.unknown() });

function previewCopyDraft(now: () => number): Handler<ConsoleEnv> {
  return async function previewCopyDraftHandler(c) {
    const body = copyPreviewBody.safeParse(await readJsonBody(c.req.raw));
    if (!body.success) return consoleError(c, 400, 'bad_request');
    const checked = checkCopyDocument(body.data.copy);
    if (!checked.ok) return refusedAnswer(c, { kind: 'invalid', errors: checked.errors });
    const key = previewKey(c.env);
    if (key === null) return consoleError(c, 503, 'console_not_configured');
    const token = await storeDraft(c.env.FUNNEL_CONFIG, key, checked.copy, now());
    const answer: CopyPreviewAnswer = {
      ok: true,
      pages: requestPages({ env: c.env, config: c.get('config') }, token),
    };
    return c.json(answer);
  };
}

const listCopyVersions: Handler<ConsoleEnv> = async function listCopyVersions(c) {
  // One more than shown, so the oldest shown still has its diff.
  const versions = await storesOf(c.env).versions.list(HISTORY_LIMIT + 1);
  const answer: CopyVersionsAnswer = {
    versions: versions.slice(0, HISTORY_LIMIT).map((version, index) => ({
      ...copySummaryOf(version),
      diff: diffCopy(versions[index + 1]?.copy ?? null, version.copy),
    })),
  };
  return c.json(answer);
};
