import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { OBJECT_BINDINGS } from './object-bindings';

/**
 * The Durable Objects a test may have written since the file's storage was emptied
 * (fresh-storage.ts): every object anything in the test's isolate asked a namespace of `env` for,
 * with when it was last asked.
 *
 * Two things follow from it. The experiment shards a fixture reads or empties: workerd keeps a
 * shard's SQLite file when reset() empties it, so the pool's listDurableObjectIds names every
 * shard any earlier file wrote, up to all 64 late in a run; a fixture that emptied or read each
 * listed shard opened every one of them, and an emptied shard runs its migrations again when
 * opened (the first test of split-gating.test.ts took 0.1 s alone and 32 s late in a full run).
 * Asking only the shards named here (and listed) reads the same rows. And the objects reset()
 * must find running: workerd ends an object left idle, and reset() deletes the storage of running
 * objects only (docs/testing.md says how the browser tests met it), so an object a file wrote
 * early and then left alone kept its rows into the next file. Those are woken before the reset.
 */
interface Asked {
  namespace: DurableObjectNamespace;
  id: DurableObjectId;
  at: number;
}

const asked = new Map<string, Asked>();

/** The namespaces put in front of env's, so it is done once per isolate. */
const watching = new WeakSet<object>();

/** An object idle this long may have been ended by workerd, so it is woken before a reset. */
const IDLE_MS = 1_000;

const keyOf = (binding: string, id: DurableObjectId) => `${binding}:${id.toString()}`;

/** Whether anything in this isolate asked for the shard of `id` since the storage was emptied. */
export function mayHoldRows(id: DurableObjectId): boolean {
  return asked.has(keyOf('EXPERIMENT_SHARDS', id));
}

/** After reset(): every object is empty again. */
export function forgetAskedObjects(): void {
  asked.clear();
}

/**
 * Wakes every object asked for since the last reset and idle since, so reset() deletes its
 * storage too: running a no-op inside it starts it again.
 */
export async function wakeIdleObjects(now = Date.now()): Promise<number> {
  const idle = [...asked.values()].filter(({ at }) => now - at >= IDLE_MS);
  // An object that cannot start (a test's faulty class) has nothing to delete.
  await Promise.allSettled(
    idle.map(({ namespace, id }) => runInDurableObject(namespace.get(id), () => undefined)),
  );
  return idle.length;
}

/**
 * Puts a namespace in front of each of env's Durable Object namespaces that writes down each id it
 * is asked for: the apps the tests build take their bindings from `env`. A Durable Object gets
 * workerd's env, not this one, so an object asked for from inside one would go unseen; none of
 * ours asks for one. Every other property is the namespace's own; `constructor` stays unbound,
 * as the pool's helpers check it by name.
 */
export function watchDurableObjects(): void {
  for (const binding of OBJECT_BINDINGS) {
    const namespace = env[binding] as DurableObjectNamespace;
    if (watching.has(namespace)) continue;
    const watched = new Proxy(namespace, {
      get(target, property) {
        if (property === 'get') {
          return (id: DurableObjectId, options?: DurableObjectNamespaceGetDurableObjectOptions) => {
            asked.set(keyOf(binding, id), { namespace: target, id, at: Date.now() });
            return target.get(id, options);
          };
        }
        const value = Reflect.get(target, property, target);
        if (typeof value !== 'function' || property === 'constructor') return value;
        return value.bind(target);
      },
    });
    watching.add(watched);
    Object.defineProperty(env, binding, { value: watched, configurable: true });
  }
}
