import { type ContentDocument, parseContent } from '../../shared/config/content';
import { type ExperimentsDocument, parseExperiments } from '../../shared/config/experiments';
import { type FlowsDocument, parseFlows } from '../../shared/config/flows';
import type { ParseResult } from '../../shared/config/parse-document';
import { parseRouting, type RoutingDocument } from '../../shared/config/routing';
import { parseSplit, type SplitDocument } from '../../shared/config/split';
import { logError } from '../../shared/log';
import {
  DEFAULT_CONTENT,
  DEFAULT_EXPERIMENTS,
  DEFAULT_FLOWS,
  DEFAULT_ROUTING,
  DEFAULT_SPLIT,
} from './defaults';

/**
 * KV keys: the roles of SPEC.md §7's `config.json` (split weights) and `flows.json`, the routes
 * (worker/routing/), the experiments (worker/experiments/config/) and the screens' content
 * (worker/content/).
 */
export const CONFIG_KEYS = {
  split: 'split',
  flows: 'flows',
  routing: 'routing',
  experiments: 'experiments',
  content: 'content',
} as const;

export interface FunnelConfig {
  split: SplitDocument;
  flows: FlowsDocument;
  routing: RoutingDocument;
  experiments: ExperimentsDocument;
  content: ContentDocument;
  /** `split.version+flows.version`, carried in logs and analytics events. */
  version: string;
}

/** How long a loaded config is reused by an isolate before KV is read again. */
export const DEFAULT_CONFIG_TTL_MS = 10_000;

type Kind = keyof typeof CONFIG_KEYS;

interface Values {
  split: SplitDocument;
  flows: FlowsDocument;
  routing: RoutingDocument;
  experiments: ExperimentsDocument;
  content: ContentDocument;
}

/** A document's last valid value in this isolate, with the KV text it was parsed from. */
interface KnownGood<Value> {
  raw: string;
  value: Value;
}

/** Documents whose absence is how every project starts, not a fault. */
const OPTIONAL_KINDS: ReadonlySet<Kind> = new Set(['routing', 'experiments', 'content']);

/** What one bulk read of the documents' KV texts found: each key's text, or why there is none. */
type KvTexts = { texts: Map<string, string | null> } | { error: string };

/**
 * Every document's KV text in one bulk read (a KV get of up to 100 keys): one round trip for the
 * five rather than five. Under `npm start` and in the worker tests, which read the config on every
 * request (CONFIG_CACHE_TTL_MS 0), five gets cost about 5 ms of a request's 8 in local workerd,
 * one bulk get 1.4 (measured 2026-12-03); in production an isolate pays it once every ttl.
 */
async function readTexts(kv: KVNamespace): Promise<KvTexts> {
  try {
    return { texts: await kv.get(Object.values(CONFIG_KEYS), 'text') };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/**
 * One document's KV text, parsed: a value to use as it is (the text has not changed since the
 * last valid one), an optional document KV says is not there, or what reading it found, with the
 * error code a failure is logged under.
 */
function parseText<Value>(
  read: KvTexts,
  kind: Kind,
  parse: (raw: unknown) => ParseResult<Value>,
  known: KnownGood<Value> | undefined,
):
  | { use: Value }
  | { absent: true }
  | { raw: string | null; code: string; result: ParseResult<Value> } {
  if ('error' in read) {
    return { raw: null, code: 'config_unreadable', result: { ok: false, error: read.error } };
  }
  const raw = read.texts.get(CONFIG_KEYS[kind]) ?? null;
  if (raw !== null && known?.raw === raw) return { use: known.value };
  // No routes, experiments or content yet is how every project starts: everyone takes the
  // default route, only the split test runs and every screen is as code composes it, as
  // before any existed; nothing is wrong to log. A read that succeeded and found none is the
  // truth, not a fault: a document taken out of KV is gone, never served on from an earlier one.
  if (raw === null && OPTIONAL_KINDS.has(kind)) return { absent: true };
  if (raw === null) {
    const error = `KV key "${CONFIG_KEYS[kind]}" is missing`;
    return { raw, code: 'config_missing', result: { ok: false, error } };
  }
  return { raw, code: 'config_invalid', result: parse(raw) };
}

/**
 * Reads and validates the funnel config from KV, at most once per `ttlMs` per isolate.
 * Anything wrong with a document (missing, unreadable, invalid) never breaks a page: the last
 * valid value this isolate saw is used, else the defaults in code, and an error line is logged.
 * An optional document KV holds none of is no fault: its defaults, whatever was there before.
 * A document whose text has not changed since the last read is not parsed again: the same
 * object goes on, so what is worked out from it (the compiled routes, worker/routing/router.ts)
 * is worked out once per version.
 */
export function createConfigSource({ now = Date.now }: { now?: () => number } = {}) {
  let cached: { config: FunnelConfig; loadedAt: number } | undefined;
  const lastGood: { [K in Kind]?: KnownGood<Values[K]> } = {};

  function readDocument<K extends Kind>(
    texts: KvTexts,
    kind: K,
    parse: (raw: unknown) => ParseResult<Values[K]>,
    fallback: Values[K],
  ): Values[K] {
    const read = parseText(texts, kind, parse, lastGood[kind]);
    if ('use' in read) return read.use;
    if ('absent' in read) {
      // A later failed read then falls back to the defaults, not to what was taken out.
      delete lastGood[kind];
      return fallback;
    }
    const { raw, code, result } = read;
    if (result.ok && raw !== null) {
      (lastGood as Record<K, KnownGood<Values[K]>>)[kind] = { raw, value: result.value };
      return result.value;
    }
    const known = lastGood[kind]?.value;
    logError(code, {
      key: CONFIG_KEYS[kind],
      detail: result.ok ? 'unreadable' : result.error,
      using: known ? 'last_known_good' : 'defaults',
    });
    return known ?? fallback;
  }

  async function loadFresh(kv: KVNamespace): Promise<FunnelConfig> {
    const texts = await readTexts(kv);
    const documents = {
      split: readDocument(texts, 'split', parseSplit, DEFAULT_SPLIT),
      flows: readDocument(texts, 'flows', parseFlows, DEFAULT_FLOWS),
      routing: readDocument(texts, 'routing', parseRouting, DEFAULT_ROUTING),
      experiments: readDocument(texts, 'experiments', parseExperiments, DEFAULT_EXPERIMENTS),
      content: readDocument(texts, 'content', parseContent, DEFAULT_CONTENT),
    };
    const config = {
      ...documents,
      version: `${documents.split.version}+${documents.flows.version}`,
    };
    cached = { config, loadedAt: now() };
    return config;
  }

  return {
    load(kv: KVNamespace, ttlMs = DEFAULT_CONFIG_TTL_MS): Promise<FunnelConfig> {
      if (cached && now() - cached.loadedAt < ttlMs) return Promise.resolve(cached.config);
      // Each request reads KV itself rather than awaiting another request's read: workerd ties
      // I/O to the request that started it, and a request left waiting on another's finished
      // or cancelled read is cancelled as hung (seen under load in npm run bench).
      return loadFresh(kv);
    },
  };
}

export type ConfigSource = ReturnType<typeof createConfigSource>;
