import { env } from 'cloudflare:workers';
import { afterEach, expect } from 'vitest';

/**
 * Config writes that land in a file other than the one that made them. The worker files share
 * one workerd and one isolate (isolate: false in vitest.config.ts), so a KV write a test did not
 * wait for would land after the next file's reset() and change what that file's pages serve.
 * Each FUNNEL_CONFIG write is looked at as it is made: a write the test runner's stack leads to
 * (a test or hook waiting on it), or whose async stack names the file running now, is the file's
 * own; any other fails the test it lands in, with the stack that made it.
 */

interface Landed {
  key: string;
  stack: string;
}

interface Watch {
  /** The namespaces put in front of FUNNEL_CONFIG, so it is done once per isolate. */
  watching: WeakSet<object>;
  file: string;
  landed: Landed[];
}

const WATCH = Symbol.for('geofunnel.lateWrites');
type Watched = typeof globalThis & { [WATCH]?: Watch };

/** Frames enough to reach the test file through the worker's and the fixtures' calls. */
const STACK_FRAMES = 200;

function stackHere(): string {
  const errors = Error as unknown as { stackTraceLimit: number };
  const limit = errors.stackTraceLimit;
  errors.stackTraceLimit = STACK_FRAMES;
  try {
    return new Error('a config write').stack ?? '';
  } finally {
    errors.stackTraceLimit = limit;
  }
}

/** Whether the write whose stack this is belongs to `file`, the file running now. */
export function madeBy(stack: string, file: string): boolean {
  if (stack.includes('@vitest/runner')) return true;
  const files = stack.match(/test\/worker\/[\w/.-]+\.test\.tsx?/g) ?? [];
  return files.some((named) => file.endsWith(named));
}

function watch(): Watch {
  const state = (globalThis as Watched)[WATCH] ?? { watching: new WeakSet(), file: '', landed: [] };
  (globalThis as Watched)[WATCH] = state;
  return state;
}

/** The writes from elsewhere seen since the last look, forgotten: for the check's own test. */
export function takeLandedWrites(): Landed[] {
  return watch().landed.splice(0);
}

/**
 * Puts a namespace in front of env.FUNNEL_CONFIG that looks at each put and delete (the apps the
 * tests build take their bindings from `env`), and fails a test a write from elsewhere landed in.
 * Every other property is the namespace's own.
 */
export function watchLateWrites(): void {
  const state = watch();
  state.file = String(expect.getState().testPath ?? '');
  afterEach(() => {
    const landed = takeLandedWrites();
    if (landed.length === 0) return;
    const lines = landed.map(({ key, stack }) => `  ${key}, written by:\n${stack}`);
    throw new Error(
      `${landed.length} config write(s) another file made landed during this test:\n${lines.join('\n')}`,
    );
  });
  const namespace = env.FUNNEL_CONFIG;
  if (state.watching.has(namespace)) return;
  const watched = new Proxy(namespace, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== 'function' || property === 'constructor') return value;
      if (property !== 'put' && property !== 'delete') return value.bind(target);
      return (key: string, ...rest: unknown[]) => {
        const stack = stackHere();
        if (!madeBy(stack, state.file)) state.landed.push({ key, stack });
        return value.apply(target, [key, ...rest]);
      };
    },
  });
  state.watching.add(watched);
  Object.defineProperty(env, 'FUNNEL_CONFIG', { value: watched, configurable: true });
}
