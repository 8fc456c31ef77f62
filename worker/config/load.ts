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

/**
 * One document's KV text, read and parsed: a value to use as it is (the text has not changed
 * since the last valid one, or an optional document is absent), or what reading it found, with
 * the error code a failure is logged under.
 */
async function readAndParse<Value>(
  kv: KVNamespace,
  kind: Kind,
  parse: (raw: unknown) => ParseResult<Value>,
  known: KnownGood<Value> | undefined,
  fallback: Value,
): Promise<{ use: Value } | { raw: string | null; code: string; result: ParseResult<Value> }> {
  try {
    const raw = await kv.get(CONFIG_KEYS[kind], 'text');
    if (raw !== null && known?.raw === raw) return { use: known.value };
    // No routes, experiments or content yet is how every project starts: everyone takes the
    // default route, only the split test runs and every screen is as code composes it, as
    // before any existed; nothing is wrong to log.
    if (raw === null && OPTIONAL_KINDS.has(kind)) return { use: known?.value ?? fallback };
    if (raw === null) {
      const error = `KV key "${CONFIG_KEYS[kind]}" is missing`;
      return { raw, code: 'config_missing', result: { ok: false, error } };
    }
    return { raw, code: 'config_invalid', result: parse(raw) };
  } catch (error) {
    return {
      raw: null,
      code: 'config_unreadable',
      result: { ok: false, error: (error as Error).message },
    };
  }
}

/**
 * Reads and validates the funnel config from KV, at most once per `ttlMs` per isolate.
 * Anything wrong with a document (missing, unreadable, invalid) never breaks a page: the last
 * valid value this isolate saw is used, else the defaults in code, and an error line is logged.
 * A document whose text has not changed since the last read is not parsed again: the same
 * object goes on, so what is worked out from it (the compiled routes, worker/routing/router.ts)
 * is worked out once per version.
 */
export function createConfigSource({ now = Date.now }: { now?: () => number } = {}) {
  let cached: { config: FunnelConfig; loadedAt: number } | undefined;
  const lastGood: { [K in Kind]?: KnownGood<Values[K]> } = {};

  async function readDocument<K extends Kind>(
    kv: KVNamespace,
    kind: K,
    parse: (raw: unknown) => ParseResult<Values[K]>,
    fallback: Values[K],
  ): Promise<Values[K]> {
    const read = await readAndParse(kv, kind, parse, lastGood[kind], fallback);
    if ('use' in read) return read.use;
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
    const [split, flows, routing, experiments, content] = await Promise.all([
      readDocument(kv, 'split', parseSplit, DEFAULT_SPLIT),
      readDocument(kv, 'flows', parseFlows, DEFAULT_FLOWS),
      readDocument(kv, 'routing', parseRouting, DEFAULT_ROUTING),
      readDocument(kv, 'experiments', parseExperiments, DEFAULT_EXPERIMENTS),
      readDocument(kv, 'content', parseContent, DEFAULT_CONTENT),
    ]);
    const config = {
      split,
      flows,
      routing,
      experiments,
      content,
      version: `${split.version}+${flows.version}`,
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
