import { statfsSync } from 'node:fs';

/**
 * Where `npm test`'s temporary files go (TMPDIR, which Node's os.tmpdir() reads in every process
 * the run starts): Miniflare keeps every D1 database, Durable Object and KV namespace of the
 * worker tests' workerds and of the browser tests' built workers there (scripts/built-worker.ts),
 * as SQLite files that sync to disk at each commit, some 18,000 fsyncs a minute in the worker
 * project. On a tmpfs a sync costs nothing: the worker tests of experiments/ and purchases/ took
 * 42 s and 73 CPU-seconds there instead of 56 s and 91 (one file at a time, every test passing;
 * the CPU saved was the kernel's), and a whole `npm test` 540 s instead of 602-612. The storage is
 * no less real: the same workerd and SQLite, in memory. A full run holds about 430 MB there at
 * its peak.
 */
export const MEMORY_FOLDER = '/dev/shm';

/** Room the run needs in it; a container's /dev/shm is often 64 MB, too small. */
export const MEMORY_FOLDER_ROOM = 2 * 1024 ** 3;

type FreeSpace = (path: string) => { bavail: number; bsize: number };

/**
 * TMPDIR in memory where the machine has a tmpfs with room, else nothing (the system's folder);
 * nothing either where the caller chose a TMPDIR of their own.
 */
export function memoryTemporaryFolder(
  freeSpace: FreeSpace = statfsSync,
  environment: NodeJS.ProcessEnv = process.env,
): { TMPDIR: string } | Record<string, never> {
  if (environment.TMPDIR) return {};
  try {
    const { bavail, bsize } = freeSpace(MEMORY_FOLDER);
    return bavail * bsize >= MEMORY_FOLDER_ROOM ? { TMPDIR: MEMORY_FOLDER } : {};
  } catch {
    return {};
  }
}
