import { afterAll, afterEach } from 'vitest';
import { secretsIn } from '../log-secrets';

/**
 * Fails the test during which anything printed a line holding a secret's shape (../log-secrets.ts):
 * a subscriber or resume link's token, a session's access token, a card number. It watches below
 * the tests' own console spies, which most files set to keep the run's output short: `console`
 * becomes a proxy whose log, info, warn, error and debug look at each line before calling
 * whatever the method is then (the real one, or a test's spy), so a silenced line is checked too;
 * a spy's `mock` reads through it.
 * Installed once per workerd: the worker projects' files share one (isolate: false).
 */

const METHODS = new Set<PropertyKey>(['log', 'info', 'warn', 'error', 'debug']);
const INSTALLED = Symbol.for('geofunnel.secretFreeLogs');

interface Leak {
  secrets: string[];
  line: string;
}

type Guarded = typeof globalThis & { [INSTALLED]?: Leak[] };

function install(): Leak[] {
  const leaks: Leak[] = [];
  const real = console;
  const wrappers = new Map<PropertyKey, (...args: unknown[]) => unknown>();
  const guarded = new Proxy(real, {
    get(target, property, receiver) {
      if (!METHODS.has(property)) return Reflect.get(target, property, receiver);
      let wrapper = wrappers.get(property);
      if (wrapper === undefined) {
        wrapper = function watchedConsole(...args: unknown[]) {
          const line = args.map(String).join(' ');
          const secrets = secretsIn(line);
          if (secrets.length > 0) leaks.push({ secrets, line });
          const method = Reflect.get(target, property) as (...args: unknown[]) => unknown;
          return method.apply(target, args);
        };
        // A test's vi.spyOn(console, …) lands on the console beneath: its calls read through.
        Object.defineProperty(wrapper, 'mock', {
          get: () =>
            (
              Reflect.getOwnPropertyDescriptor(target, property)?.value as
                | { mock?: unknown }
                | undefined
            )?.mock,
        });
        wrappers.set(property, wrapper);
      }
      return wrapper;
    },
  });
  // Every module's `console` is the global's, looked up at each call.
  Reflect.set(globalThis, 'console', guarded);
  return leaks;
}

const guarded = globalThis as Guarded;
guarded[INSTALLED] ??= install();
const leaks = guarded[INSTALLED];

/** The lines with a secret printed since the last look, forgotten: for the check's own test. */
export function takeLeaks(): Leak[] {
  return leaks.splice(0);
}

function failOnLeaks(when: string) {
  const found = takeLeaks();
  if (found.length === 0) return;
  const lines = found.map(({ secrets, line }) => `  ${secrets.join(', ')}: ${line.slice(0, 400)}`);
  throw new Error(`${found.length} log line(s) ${when} held a secret:\n${lines.join('\n')}`);
}

afterEach(() => failOnLeaks('printed during this test'));
// A line printed after a file's last test (an answer's waitUntil work, an afterAll).
afterAll(() => failOnLeaks('printed after the last test'));
