import { env } from 'cloudflare:workers';

/**
 * The experiment shards a test may have written since the file's storage was emptied
 * (fresh-storage.ts): every shard anything in the test's isolate asked EXPERIMENT_SHARDS for.
 *
 * workerd keeps a shard's SQLite file when reset() empties it, so the pool's listDurableObjectIds
 * names every shard any earlier file of the shared workerd wrote: up to all 64 late in a run. A
 * fixture that emptied or read each listed shard opened every one of them, and an emptied shard
 * runs its migrations again when opened: the first test of split-gating.test.ts took 0.1 s alone
 * and 32 s late in a full run. Asking only the shards named here (and listed) reads the same rows.
 */
const asked = new Set<string>();

/** The namespaces put in front of EXPERIMENT_SHARDS, so it is done once per isolate. */
const watching = new WeakSet<object>();

/** Whether anything in this isolate asked for the shard of `id` since the storage was emptied. */
export function mayHoldRows(id: DurableObjectId): boolean {
  return asked.has(id.toString());
}

/** After reset(): every shard is empty again. */
export function forgetWrittenShards(): void {
  asked.clear();
}

/**
 * Puts a namespace in front of env.EXPERIMENT_SHARDS that writes down each id it is asked for:
 * the apps the tests build take their bindings from `env`. A Durable Object gets workerd's env,
 * not this one, so a shard written from inside one would go unseen; none of ours writes one.
 * Every other property is the namespace's own; `constructor` stays unbound, as the pool's
 * helpers check it by name.
 */
export function watchExperimentShards(): void {
  const namespace = env.EXPERIMENT_SHARDS;
  if (watching.has(namespace)) return;
  const watched = new Proxy(namespace, {
    get(target, property) {
      if (property === 'get') {
        return (id: DurableObjectId, options?: DurableObjectNamespaceGetDurableObjectOptions) => {
          asked.add(id.toString());
          return target.get(id, options);
        };
      }
      const value = Reflect.get(target, property, target);
      if (typeof value !== 'function' || property === 'constructor') return value;
      return value.bind(target);
    },
  });
  watching.add(watched);
  Object.defineProperty(env, 'EXPERIMENT_SHARDS', { value: watched, configurable: true });
}
