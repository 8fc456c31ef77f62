import { Log, LogLevel, Miniflare } from 'miniflare';
import { declaredAssets } from '../built-worker';
import { childWorkerdPids, workerdPidsStartedSince } from './process-cpu';
import { EMPTY_WORKER } from './worker-startup';

/**
 * An empty worker behind the same asset router as the funnel's (wrangler.toml's [assets]: the
 * router looks up every request's path first, and only a path that is no file reaches the
 * worker). Loaded beside the floor, its requests a second are the most one workerd serves here
 * for any answer a worker gives, whatever the worker does: workerd answers on one thread, and
 * the router's lookup is JavaScript on that thread. Measured with wrk (10 connections, workerd
 * at 100% of one core): 6225 requests a second without the router, 1917 behind it.
 */
export interface EmptyWorker {
  url: URL;
  /** The workerd this instance started: its CPU is the empty worker's alone. */
  pids: number[];
  stop(): Promise<void>;
}

export async function startEmptyWorker(probeAsset: string): Promise<EmptyWorker> {
  const before = childWorkerdPids();
  const mf = new Miniflare({
    modules: true,
    script: EMPTY_WORKER,
    compatibilityDate: '2026-04-20',
    assets: declaredAssets(),
    host: '127.0.0.1',
    port: 0,
    cf: {},
    log: new Log(LogLevel.NONE),
    handleRuntimeStdio() {},
  });
  try {
    const url = await mf.ready;
    // A reference without the router in front would measure nothing the funnel pays for.
    const asset = await fetch(new URL(probeAsset, url));
    const text = await asset.text();
    if (!asset.ok || text === 'ok') {
      throw new Error(`the empty worker's router did not serve ${probeAsset} (${asset.status})`);
    }
    return {
      url,
      pids: workerdPidsStartedSince(before),
      stop: () => mf.dispose(),
    };
  } catch (error) {
    await mf.dispose();
    throw error;
  }
}
