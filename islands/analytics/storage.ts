/** The part of Web Storage the tracker uses; unit tests hand it a Map-backed one. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Where the tracker reports what went wrong. It never throws into a screen. */
export interface AnalyticsLog {
  info(message: string): void;
  warn(message: string, detail?: unknown): void;
}

export interface StoredValue<T> {
  get(): T;
  set(value: T): void;
}

/**
 * One JSON value under one storage key. Every read goes to storage, because another tab of the
 * same visitor may have written since; the text is parsed again only when it changed, so a
 * queue of a thousand events is not re-read on every click. A storage that throws (Safari's private mode, a full quota,
 * storage switched off) leaves the value in memory for the rest of this page: events still flow,
 * they just do not outlive the page.
 */
export function storedValue<T>(options: {
  storage: KeyValueStorage | null;
  key: string;
  /** The stored JSON as T, or null when it is not one (an older format, a hand edit). */
  parse: (json: unknown) => T | null;
  initial: () => T;
  log: AnalyticsLog;
}): StoredValue<T> {
  const { key, parse, initial, log } = options;
  let storage = options.storage;
  let memory: T = initial();
  /** The stored text `memory` was read from or written as. */
  let memoryText: string | null = null;

  const fallBackToMemory = (error: unknown) => {
    if (storage) log.warn(`storage unavailable, ${key} kept in memory`, error);
    storage = null;
  };

  return {
    get() {
      if (!storage) return memory;
      try {
        const raw = storage.getItem(key);
        if (raw === null) return initial();
        if (raw !== memoryText) {
          memory = parse(JSON.parse(raw)) ?? initial();
          memoryText = raw;
        }
        return memory;
      } catch (error) {
        if (error instanceof SyntaxError) return initial();
        fallBackToMemory(error);
        return memory;
      }
    },
    set(value) {
      memory = value;
      memoryText = null;
      if (!storage) return;
      try {
        const text = JSON.stringify(value);
        storage.setItem(key, text);
        memoryText = text;
      } catch (error) {
        fallBackToMemory(error);
      }
    },
  };
}
