import { describe, expect, it } from 'vitest';
import {
  MEMORY_FOLDER,
  MEMORY_FOLDER_ROOM,
  memoryTemporaryFolder,
} from '../../scripts/memory-folder';

const withFree = (bytes: number) => () => ({ bavail: bytes / 4096, bsize: 4096 });

describe("npm test's temporary folder", () => {
  it('is the tmpfs where it has room for the run', () => {
    expect(memoryTemporaryFolder(withFree(MEMORY_FOLDER_ROOM), {})).toEqual({
      TMPDIR: MEMORY_FOLDER,
    });
  });

  it("stays the system's where the tmpfs is small, as a container's often is", () => {
    expect(memoryTemporaryFolder(withFree(64 * 1024 ** 2), {})).toEqual({});
  });

  it("stays the system's where there is no tmpfs to ask", () => {
    const missing = () => {
      throw Object.assign(
        new Error(`ENOENT: no such file or directory, statfs '${MEMORY_FOLDER}'`),
        {
          code: 'ENOENT',
        },
      );
    };
    expect(memoryTemporaryFolder(missing, {})).toEqual({});
  });

  it('leaves a TMPDIR the caller chose', () => {
    expect(
      memoryTemporaryFolder(withFree(MEMORY_FOLDER_ROOM), { TMPDIR: '/var/tmp/mine' }),
    ).toEqual({});
  });
});
