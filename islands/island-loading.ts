import { emit } from './analytics/emit';
import { wentWithThePage } from './page-going';

/** SPEC.md §9: a chunk that has not loaded after this long has failed. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/**
 * Why a chunk failed (SPEC.md §8 "with the type (missing, timeout and so on)"): 'missing' when
 * its import was refused (a network error, a 404, a blocked request), 'timeout' when nothing
 * came within CHUNK_LOAD_TIMEOUT_MS.
 */
export type ChunkFailureType = 'missing' | 'timeout';

/** SPEC.md §8: 'Loading chunk {id} failed', with the type. */
export class ChunkLoadError extends Error {
  constructor(
    readonly chunk: string,
    readonly type: ChunkFailureType,
    cause?: unknown,
  ) {
    super(`Loading chunk ${chunk} failed. (${type})`, { cause });
    this.name = 'ChunkLoadError';
  }
}

/** Runs `run` after `ms`; returns what cancels it. Injected by tests, which keep the clock. */
export type Schedule = (run: () => void, ms: number) => () => void;

const realSchedule: Schedule = (run, ms) => {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
};

export interface ChunkLoading {
  /** The chunk's id in messages and analytics (an island's name). */
  chunk: string;
  timeoutMs?: number;
  schedule?: Schedule;
}

/** One attempt: what `load` gives, or a ChunkLoadError once it is refused or overdue. */
function attempt<T>(load: () => Promise<T>, options: Required<ChunkLoading>): Promise<T> {
  const { chunk, timeoutMs, schedule } = options;
  return new Promise<T>((resolve, reject) => {
    const cancel = schedule(() => reject(new ChunkLoadError(chunk, 'timeout')), timeoutMs);
    Promise.resolve()
      .then(load)
      .then(resolve, (error: unknown) => reject(new ChunkLoadError(chunk, 'missing', error)))
      .finally(cancel);
  });
}

/**
 * Loads a chunk, trying once more when the first attempt is refused or stalls (SPEC.md §8, §9).
 * `load` is called once per attempt; rejects with the second attempt's ChunkLoadError.
 */
export async function loadChunk<T>(load: () => Promise<T>, options: ChunkLoading): Promise<T> {
  const settled = {
    chunk: options.chunk,
    timeoutMs: options.timeoutMs ?? CHUNK_LOAD_TIMEOUT_MS,
    schedule: options.schedule ?? realSchedule,
  };
  try {
    return await attempt(load, settled);
  } catch {
    return attempt(load, settled);
  }
}

/**
 * SPEC.md §8: 'Loading chunk {id} failed' with the type, in the console and in analytics. `url`
 * is the file asked for, where the caller knows it (an island's module).
 */
export function reportChunkFailure(error: ChunkLoadError, url?: string): void {
  if (url === undefined) console.error(error.message);
  else console.error(error.message, url);
  emit('chunk_load_failed', { chunk: error.chunk, type: error.type });
}

/**
 * A chunk a press needs (the sign-up code on Continue), loaded as an island's module is: tried
 * once more, then reported, unless the page went with it. Rejects with the ChunkLoadError.
 */
export async function loadOnPress<T>(chunk: string, load: () => Promise<T>): Promise<T> {
  try {
    return await loadChunk(load, { chunk });
  } catch (error) {
    if (!(await wentWithThePage())) reportChunkFailure(error as ChunkLoadError);
    throw error;
  }
}
