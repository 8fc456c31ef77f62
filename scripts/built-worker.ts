import type { Readable } from 'node:stream';
import { Log, LogLevel, Miniflare } from 'miniflare';

/**
 * Serves the built worker (`npm run build`: dist/worker + dist/client) with workerd through
 * Miniflare, without wrangler dev's proxy in front. Used by the browser tests and the benchmark.
 */
export interface BuiltWorker {
  url: URL;
  /** JSON log lines the worker printed (one per request, plus error lines). */
  logs: Record<string, unknown>[];
  putConfig(key: 'split' | 'flows', value: unknown): Promise<void>;
  deleteConfig(key: 'split' | 'flows'): Promise<void>;
  stop(): Promise<void>;
}

function collectJsonLines(stream: Readable, into: Record<string, unknown>[]) {
  let buffered = '';
  stream.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      const start = line.indexOf('{');
      if (start === -1) continue;
      try {
        into.push(JSON.parse(line.slice(start)) as Record<string, unknown>);
      } catch {
        // Not one of ours (workerd's own output).
      }
    }
  });
}

export async function startBuiltWorker(
  options: { port?: number; bindings?: Record<string, string>; quiet?: boolean } = {},
): Promise<BuiltWorker> {
  const logs: Record<string, unknown>[] = [];
  const mf = new Miniflare({
    modules: true,
    scriptPath: 'dist/worker/index.js',
    compatibilityDate: '2026-04-20',
    compatibilityFlags: ['nodejs_compat'],
    kvNamespaces: ['FUNNEL_CONFIG'],
    assets: {
      directory: 'dist/client',
      binding: 'ASSETS',
      routerConfig: { has_user_worker: true },
    },
    bindings: { ENVIRONMENT: 'development', CONFIG_CACHE_TTL_MS: '0', ...options.bindings },
    host: '127.0.0.1',
    port: options.port ?? 0,
    cf: {},
    log: new Log(options.quiet ? LogLevel.NONE : LogLevel.WARN),
    handleRuntimeStdio(stdout: Readable, stderr: Readable) {
      collectJsonLines(stdout, logs);
      collectJsonLines(stderr, logs);
    },
  });
  const url = await mf.ready;
  const kv = await mf.getKVNamespace('FUNNEL_CONFIG');
  return {
    url: new URL(url.href.replace('127.0.0.1', 'localhost')),
    logs,
    putConfig: (key, value) => kv.put(key, JSON.stringify(value)),
    deleteConfig: (key) => kv.delete(key),
    stop: () => mf.dispose(),
  };
}
