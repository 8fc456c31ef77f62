import { logError } from '../../shared/log';
import { DEFAULT_FLOWS, DEFAULT_SPLIT } from './defaults';
import {
  type FlowsConfig,
  type ParseResult,
  parseFlows,
  parseSplit,
  type SplitConfig,
} from './schema';

/** KV keys: the roles of SPEC.md §7's `config.json` (split weights) and `flows.json`. */
export const CONFIG_KEYS = { split: 'split', flows: 'flows' } as const;

export interface FunnelConfig {
  split: SplitConfig;
  flows: FlowsConfig;
  /** `split.version+flows.version`, carried in logs and analytics events. */
  version: string;
}

/** How long a loaded config is reused by an isolate before KV is read again. */
export const DEFAULT_CONFIG_TTL_MS = 10_000;

type Kind = keyof typeof CONFIG_KEYS;

/**
 * Reads and validates the funnel config from KV, at most once per `ttlMs` per isolate.
 * Anything wrong with a document (missing, unreadable, invalid) never breaks a page: the last
 * valid value this isolate saw is used, else the defaults in code, and an error line is logged.
 */
export function createConfigSource({ now = Date.now }: { now?: () => number } = {}) {
  let cached: { config: FunnelConfig; loadedAt: number } | undefined;
  const lastGood: { split?: SplitConfig; flows?: FlowsConfig } = {};

  async function readDocument<T>(
    kv: KVNamespace,
    kind: Kind,
    parse: (raw: unknown) => ParseResult<T>,
    fallback: T,
  ): Promise<T> {
    let result: ParseResult<T>;
    let code = 'config_invalid';
    try {
      const raw = await kv.get(CONFIG_KEYS[kind], 'text');
      if (raw === null) {
        code = 'config_missing';
        result = { ok: false, error: `KV key "${CONFIG_KEYS[kind]}" is missing` };
      } else {
        result = parse(raw);
      }
    } catch (error) {
      code = 'config_unreadable';
      result = { ok: false, error: (error as Error).message };
    }
    if (result.ok) {
      (lastGood as Record<Kind, T>)[kind] = result.value;
      return result.value;
    }
    const known = (lastGood as Record<Kind, T | undefined>)[kind];
    logError(code, {
      key: CONFIG_KEYS[kind],
      detail: result.error,
      using: known ? 'last_known_good' : 'defaults',
    });
    return known ?? fallback;
  }

  async function loadFresh(kv: KVNamespace): Promise<FunnelConfig> {
    const [split, flows] = await Promise.all([
      readDocument(kv, 'split', parseSplit, DEFAULT_SPLIT),
      readDocument(kv, 'flows', parseFlows, DEFAULT_FLOWS),
    ]);
    const config = { split, flows, version: `${split.version}+${flows.version}` };
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
