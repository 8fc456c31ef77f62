import { type Handler, Hono } from 'hono';
import type { ConfigDocument } from '../../shared/console-api/config';
import {
  type ChangeSetsAnswer,
  CONSOLE_DRAFT_API,
  type DraftAnswer,
  type DraftConflictAnswer,
  type DraftReviewAnswer,
  type DraftSavedAnswer,
  type SharedDraft,
} from '../../shared/console-api/draft';
import {
  approveRequest,
  restoreRequest,
  reviewRequest,
  takeChangeSetRequest,
} from '../../shared/console-api/request-schemas';
import { type TokenHolder, tokenAuthor } from '../../shared/console-api/tokens';
import { approvalIsRequired } from '../config/approval';
import { diffDocuments, sameJson } from '../config/diff';
import {
  changeSetsOf,
  type DraftStore,
  type DraftStores,
  draftStoresOf,
  TEAM_DRAFT,
} from '../config/draft-store';
import { mergeDocuments } from '../config/merge';
import { kvLiveKeys, liveInEffect } from '../config/publish';
import type { VersionStore } from '../config/versions';
import type { Bindings } from '../env';
import type { Answer } from '../http/answer';
import { readJsonBody } from '../http/api-json';
import { consoleError } from '../http/console-errors';
import type { RateRule } from '../rate-limits/rate-limiter';
import type { ConsoleEnv } from '../request/envs';
import { writesPerAuthor } from './author-writes';
import { type DraftSave, draftSaveOf, noteOf } from './publish-request';

/**
 * The shared draft's calls (shared/console-api/draft.ts): everyone with console access reads and
 * edits one draft, kept in CONFIG_DB (worker/config/draft-store.ts). A save names the revision it
 * started from: on the newest it is the next revision; on an older one it is merged with what
 * came between when the two touched different places (worker/config/merge.ts), else refused with
 * what the others changed. A review is asked and approved on one revision; the approver is the
 * Access identity of the request (never a field of the body) and none of the draft's editors.
 */

/**
 * Writes to the draft per author: the console saves a second after typing stops, so a marketer
 * editing fast makes a few a minute; a runaway script or a stolen session is stopped here.
 */
export const DRAFT_WRITES_PER_AUTHOR: RateRule & { name: string } = {
  name: 'console_draft_write_per_author',
  limit: 60,
  windowMs: 60_000,
};

/** A path under the draft's mount. */
const under = (full: string) => full.slice(CONSOLE_DRAFT_API.draft.length);

/** GET and PUT the draft, POST review and approve (mounted at CONSOLE_DRAFT_API.draft). */
export function draftRoutes(options: { now: () => number }) {
  const app = new Hono<ConsoleEnv>();
  app.get('/', showDraft);
  app.get(under(CONSOLE_DRAFT_API.changeSets), listChangeSets);
  app.use('*', writesPerAuthor(DRAFT_WRITES_PER_AUTHOR));
  app.put('/', saveDraft(options.now));
  app.post('/review', askForReview(options.now));
  app.post('/approve', approveDraft(options.now));
  app.post('/restore', restoreVersion(options.now));
  app.post(`${under(CONSOLE_DRAFT_API.changeSets)}/take`, takeChangeSet(options.now));
  return app;
}

/**
 * The draft a request works on: the team's shared draft, or for a console token's request the
 * token's own change set (worker/access/token-scopes.ts lets a token reach only these calls).
 */
function draftStoresFor(env: Bindings, token: TokenHolder | undefined): DraftStores {
  return draftStoresOf(env, token ? tokenAuthor(token.name) : TEAM_DRAFT);
}

/** The document's sections, each with the token scope a change to it needs. */
const SECTION_SCOPES = {
  split: 'traffic',
  flows: 'traffic',
  routing: 'traffic',
  experiments: 'traffic',
  content: 'content',
} as const satisfies Record<keyof ConfigDocument, string>;

/**
 * Whether a console token may save `document`: each section it changes (as the review reads
 * changes: diffDocuments) needs its scope. Changes from what a publish compares with: the version
 * the save is based on, else what KV holds now (before anything was published through the
 * history, as under a fresh `npm start`). A person's save: always.
 */
async function tokenMaySave(
  env: Bindings,
  token: TokenHolder | undefined,
  save: { base: number | null; document: ConfigDocument },
): Promise<boolean> {
  if (!token) return true;
  const { base, document } = save;
  const based = base === null ? null : await draftStoresOf(env).versions.get(base);
  const before = based?.document ?? (await liveInEffect(kvLiveKeys(env.FUNNEL_CONFIG)));
  return diffDocuments(before, document).every((change) => {
    const section = change.path.split('.')[0] as keyof typeof SECTION_SCOPES;
    return token.scopes.includes(SECTION_SCOPES[section] ?? 'traffic');
  });
}

/** GET change-sets: what tools and agents prepared, for a person to take (people only). */
const listChangeSets: Handler<ConsoleEnv> = async function listChangeSets(c) {
  const changeSets = await changeSetsOf(c.env);
  return c.json({ ok: true, changeSets } satisfies ChangeSetsAnswer, 200);
};

/**
 * POST change-sets/take {revision, owner}: a token's change set as the team draft's next
 * revision, by the person taking it, on the version it was based on (merged with what the team's
 * draft changed since, a clash refused as any save's). Its review, if the token asked one, is
 * not carried: the person reads it and asks for their own.
 */
function takeChangeSet(now: () => number): Handler<ConsoleEnv> {
  return async function takeChangeSetHandler(c) {
    const parsed = takeChangeSetRequest.safeParse(await readJsonBody(c.req.raw));
    if (!parsed.success) return consoleError(c, 400, 'bad_request');
    const { revision, owner } = parsed.data;
    const taken = await draftStoresOf(c.env, owner).drafts.newest();
    if (taken === null) return consoleError(c, 404, 'unknown_version');
    const save = {
      ok: true,
      revision,
      base: taken.base,
      document: taken.document,
      pausedWeights: taken.pausedWeights,
      keepMine: false,
    } as const;
    return savedOrRaced(c, draftStoresOf(c.env), save, c.get('consoleAuthor'), now);
  };
}

/** `save` by `author`, tried again while other saves keep coming first. */
async function savedOrRaced(
  c: Answer,
  stores: DraftStores,
  save: DraftSave & { ok: true },
  author: string,
  now: () => number,
): Promise<Response> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const outcome = await trySave(c, stores, save, author, new Date(now()));
    if (outcome !== 'raced') return outcome;
  }
  throw new Error('the draft could not be saved: other saves kept coming first');
}

/**
 * `draft` as it stands on version `base` when that is newer than its own: its edits merged onto
 * that version's document, its review void (a publish around the console, the CLI or a roll
 * back, came since it was started). Edits that clash with that publish leave it on its own base,
 * which a publish then refuses. Never onto an older version: that would undo a publish.
 */
async function onBase(
  draft: SharedDraft,
  base: number | null,
  versions: VersionStore,
): Promise<SharedDraft> {
  if (base === null || draft.base === null || base <= draft.base) return draft;
  const [ancestor, onto] = await Promise.all([versions.get(draft.base), versions.get(base)]);
  if (ancestor === null || onto === null) return draft;
  const merged = mergeDocuments(ancestor.document, draft.document, onto.document);
  if (merged.clashes.length > 0) return draft;
  return { ...draft, base, document: merged.document, review: null };
}

/** The draft as it stands on the live version, unsaved until the next edit (onBase). */
async function onHead(draft: SharedDraft, versions: VersionStore): Promise<SharedDraft> {
  const head = await versions.head();
  return onBase(draft, head?.seq ?? null, versions);
}

const showDraft: Handler<ConsoleEnv> = async function showDraft(c) {
  const { drafts, versions } = draftStoresFor(c.env, c.get('consoleToken'));
  const newest = await drafts.newest();
  const answer: DraftAnswer = {
    ok: true,
    draft: newest && (await onHead(newest, versions)),
    approvalRequired: approvalIsRequired(c.env.PUBLISH_APPROVAL),
  };
  return c.json(answer, 200);
};

/** The revision after `previous` holding `save`'s draft, by `author`. */
function nextRevision(
  previous: SharedDraft | null,
  save: Pick<DraftSave & { ok: true }, 'base' | 'document' | 'pausedWeights'>,
  author: string,
  at: Date,
): SharedDraft {
  const editors = previous?.editors ?? [];
  return {
    revision: (previous?.revision ?? 0) + 1,
    base: save.base,
    document: save.document,
    pausedWeights: save.pausedWeights,
    editors: editors.includes(author) ? editors : [...editors, author],
    editedBy: author,
    at: at.toISOString(),
    review: null,
  };
}

function conflictAnswer(
  c: Answer,
  draft: SharedDraft,
  ancestor: ConfigDocument | null,
  clashes: string[],
) {
  const answer: DraftConflictAnswer = {
    ok: false,
    error: 'draft_conflict',
    draft,
    theirs: ancestor === null ? [] : diffDocuments(ancestor, draft.document),
    clashes,
  };
  c.get('logFields').error = 'draft_conflict';
  return c.json(answer, 409);
}

/** What the save started from: its revision if still kept, else the version it was based on. */
async function ancestorOf(
  save: DraftSave & { ok: true },
  drafts: DraftStore,
  versions: VersionStore,
): Promise<ConfigDocument | null> {
  // As the console was shown it: on the version its save names (onHead).
  const kept = save.revision > 0 ? await drafts.get(save.revision) : null;
  if (kept) return (await onBase(kept, save.base, versions)).document;
  const based = save.base === null ? null : await versions.get(save.base);
  return based?.document ?? null;
}

type SaveOutcome = Response | 'raced';

async function trySave(
  c: Answer,
  stores: DraftStores,
  save: DraftSave & { ok: true },
  author: string,
  at: Date,
): Promise<SaveOutcome> {
  const { drafts, versions } = stores;
  const newest = await drafts.newest();
  const current = newest?.revision ?? 0;
  if (save.revision > current) return consoleError(c, 400, 'bad_request');
  if (newest === null || save.revision === current) {
    const next = nextRevision(newest, save, author, at);
    if (!(await drafts.claim(next))) return 'raced';
    return c.json({ ok: true, draft: next } satisfies DraftSavedAnswer, 200);
  }
  const ancestor = await ancestorOf(save, drafts, versions);
  if (ancestor === null) return conflictAnswer(c, newest, null, ['']);
  const theirs = await onBase(newest, save.base, versions);
  return mergedSave(c, drafts, save, { ancestor, newest: theirs, author }, at);
}

/** A save on an older revision: merged with what came since, or refused with it. */
async function mergedSave(
  c: Answer,
  drafts: DraftStore,
  save: DraftSave & { ok: true },
  { ancestor, newest, author }: { ancestor: ConfigDocument; newest: SharedDraft; author: string },
  at: Date,
): Promise<SaveOutcome> {
  const merged = mergeDocuments(ancestor, save.document, newest.document);
  if (merged.clashes.length > 0 && !save.keepMine) {
    return conflictAnswer(c, newest, ancestor, merged.clashes);
  }
  const theirs = diffDocuments(ancestor, newest.document);
  const pausedWeights = { ...newest.pausedWeights, ...save.pausedWeights };
  if (sameJson(merged.document, newest.document) && sameJson(pausedWeights, newest.pausedWeights)) {
    return c.json({ ok: true, draft: newest, merged: theirs } satisfies DraftSavedAnswer, 200);
  }
  const next = nextRevision(
    newest,
    { base: newest.base, document: merged.document, pausedWeights },
    author,
    at,
  );
  if (!(await drafts.claim(next))) return 'raced';
  return c.json({ ok: true, draft: next, merged: theirs } satisfies DraftSavedAnswer, 200);
}

function saveDraft(now: () => number): Handler<ConsoleEnv> {
  return async function saveDraftHandler(c) {
    const save = draftSaveOf(await readJsonBody(c.req.raw));
    if (!save.ok) return consoleError(c, save.error === 'draft_too_large' ? 413 : 400, save.error);
    if (!(await tokenMaySave(c.env, c.get('consoleToken'), save))) {
      return consoleError(c, 403, 'token_scope');
    }
    // Another save came between reading the newest and claiming the next: once more, merging.
    return savedOrRaced(
      c,
      draftStoresFor(c.env, c.get('consoleToken')),
      save,
      c.get('consoleAuthor'),
      now,
    );
  };
}

/**
 * POST restore {revision, seq}: an earlier version's document as the draft's next revision, on
 * the live version, by the requester: a roll back that waits for a second person's approval
 * where one is required (worker/config/gate.ts), reviewed and published as any edit of the draft.
 * Named from the revision the console showed, as a save is: one saved since is merged (a clash
 * refused, nothing written).
 */
function restoreVersion(now: () => number): Handler<ConsoleEnv> {
  return async function restoreVersionHandler(c) {
    const parsed = restoreRequest.safeParse(await readJsonBody(c.req.raw));
    if (!parsed.success) return consoleError(c, 400, 'bad_request');
    const { revision, seq } = parsed.data;
    const stores = draftStoresOf(c.env);
    const [earlier, head] = await Promise.all([stores.versions.get(seq), stores.versions.head()]);
    if (earlier === null) return consoleError(c, 404, 'unknown_version');
    const save = {
      ok: true,
      revision,
      base: head?.seq ?? null,
      document: earlier.document,
      pausedWeights: {},
      keepMine: false,
    } as const;
    return savedOrRaced(c, stores, save, c.get('consoleAuthor'), now);
  };
}

/** A review or approval on a revision that is no longer the newest: what came since. */
async function staleAnswer(c: Answer, drafts: DraftStore, revision: number, newest: SharedDraft) {
  const started = await drafts.get(revision);
  return conflictAnswer(c, newest, started?.document ?? null, []);
}

/** The revision a review or approval names, and the newest draft; or the refusal to answer. */
async function namedRevision(
  c: Answer,
  body: unknown,
  drafts: DraftStore,
  request: typeof reviewRequest | typeof approveRequest,
) {
  const parsed = request.safeParse(body);
  if (!parsed.success) return { refused: consoleError(c, 400, 'bad_request') } as const;
  const { revision } = parsed.data;
  const note = 'note' in parsed.data ? parsed.data.note : undefined;
  const newest = await drafts.newest();
  if (newest === null) return { refused: consoleError(c, 400, 'bad_request') } as const;
  if (newest.revision !== revision) {
    return { refused: await staleAnswer(c, drafts, revision, newest) } as const;
  }
  return { note, revision, drafts, newest } as const;
}

function askForReview(now: () => number): Handler<ConsoleEnv> {
  return async function askForReviewHandler(c) {
    // A token asks a review of what it may write: a read-only token has nothing to show.
    const token = c.get('consoleToken');
    if (token && !token.scopes.some((scope) => scope !== 'read')) {
      return consoleError(c, 403, 'token_scope');
    }
    const { drafts: store } = draftStoresFor(c.env, c.get('consoleToken'));
    const named = await namedRevision(c, await readJsonBody(c.req.raw), store, reviewRequest);
    if ('refused' in named) return named.refused;
    const { drafts, revision } = named;
    const at = new Date(now()).toISOString();
    if (!(await drafts.requestReview(revision, c.get('consoleAuthor'), noteOf(named.note), at))) {
      return staleAnswer(c, drafts, revision, (await drafts.newest()) ?? named.newest);
    }
    return reviewAnswer(c, drafts, named.newest);
  };
}

function approveDraft(now: () => number): Handler<ConsoleEnv> {
  return async function approveDraftHandler(c) {
    const { drafts: store } = draftStoresOf(c.env);
    const named = await namedRevision(c, await readJsonBody(c.req.raw), store, approveRequest);
    if ('refused' in named) return named.refused;
    const { drafts, revision, newest } = named;
    // Nothing to approve until someone asks: an approval is of a review, never of a draft alone.
    if (newest.review === null) return consoleError(c, 400, 'bad_request');
    const approver = c.get('consoleAuthor');
    if (newest.editors.includes(approver) || newest.review.requestedBy === approver) {
      return consoleError(c, 403, 'own_draft');
    }
    if (!(await drafts.approve(revision, approver, new Date(now()).toISOString()))) {
      return staleAnswer(c, drafts, revision, (await drafts.newest()) ?? newest);
    }
    return reviewAnswer(c, drafts, newest);
  };
}

async function reviewAnswer(c: Answer, drafts: DraftStore, fallback: SharedDraft) {
  const answer: DraftReviewAnswer = { ok: true, draft: (await drafts.newest()) ?? fallback };
  return c.json(answer, 200);
}
