import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BOUNDARIES, importViolations } from '../../scripts/import-boundaries';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function messageOf(folder: string): string {
  const boundary = BOUNDARIES.find((b) => b.folder === folder);
  if (!boundary) throw new Error(`no boundary for ${folder}/`);
  return boundary.message;
}

/** The specifiers of a planted file that its folder's boundary refuses, with their message. */
function refused(path: string, lines: readonly string[]) {
  return importViolations([{ path, text: lines.join('\n') }]).map(({ specifier, message }) => ({
    specifier,
    message,
  }));
}

describe('who may import whom (ARCHITECTURE.md, Where code runs)', () => {
  it('refuses an island importing worker or portal code, by a path resolved from the file', () => {
    expect(
      refused('islands/payments/providers/planted.ts', [
        "import { logError } from '../../../shared/log';",
        // islands/payments/providers/test-gateway.ts, not the test-gateway/ folder.
        "import { testGatewayProvider } from './test-gateway';",
        "import { createApp } from '../../../worker/app';",
        "import type { PortalBindings } from '../../../portal/env';",
        "export { Page } from '../../../screens/layout/Page';",
      ]),
    ).toEqual([
      { specifier: '../../../worker/app', message: messageOf('islands') },
      { specifier: '../../../portal/env', message: messageOf('islands') },
      { specifier: '../../../screens/layout/Page', message: messageOf('islands') },
    ]);
  });

  it('refuses a screen importing the portal, or the worker that renders it', () => {
    expect(
      refused('screens/plans/planted.tsx', [
        "import { PlanChoice } from '../../islands/PlanChoice';",
        "import { EN } from '../../locales';",
        "import { listUsers } from '../../portal/store/listings';",
        "import type { Theme } from '../../worker/funnel/locale';",
      ]),
    ).toEqual([
      { specifier: '../../portal/store/listings', message: messageOf('screens') },
      { specifier: '../../worker/funnel/locale', message: messageOf('screens') },
    ]);
  });

  it('refuses shared/ code importing anything outside shared/, npm packages aside', () => {
    expect(
      refused('shared/analytics/planted.ts', [
        "import { z } from 'zod';",
        // shared/screens.ts, not the screens/ folder.
        "import type { ScreenId } from '../screens';",
        "import type { ScreenProps } from '../../screens/types';",
        "const dictionary = import('../../locales');",
        "import manifest from '../../package.json';",
      ]),
    ).toEqual([
      { specifier: '../../screens/types', message: messageOf('shared') },
      { specifier: '../../locales', message: messageOf('shared') },
      { specifier: '../../package.json', message: messageOf('shared') },
    ]);
  });

  it('refuses the portal importing the worker, and the gateway frames importing islands', () => {
    expect(refused('portal/planted.ts', ["import { logError } from '../worker/log';"])).toEqual([
      { specifier: '../worker/log', message: messageOf('portal') },
    ]);
    expect(
      refused('test-gateway/planted.ts', ["import { showError } from '../islands/stores/error';"]),
    ).toEqual([{ specifier: '../islands/stores/error', message: messageOf('test-gateway') }]);
  });

  it('refuses worker code importing the tools', () => {
    expect(
      refused('worker/config/planted.ts', ["import { withStore } from '../../scripts/kv-store';"]),
    ).toEqual([{ specifier: '../../scripts/kv-store', message: messageOf('worker') }]);
  });
});

describe('production code never imports development-only code (biome.json)', () => {
  it('refuses the embedded portal in production worker code, not in the development entry', async () => {
    // Biome's overrides match paths from the configuration's folder: plant the files beside a
    // copy of it, outside the working tree that other tools are reading.
    const dir = await mkdtemp(join(tmpdir(), 'geofunnel-boundaries-'));
    try {
      const config = JSON.parse(await readFile(join(ROOT, 'biome.json'), 'utf8'));
      delete config.$schema;
      await writeFile(join(dir, 'biome.json'), JSON.stringify(config));
      const planted = {
        'worker/routes/planted.ts': "import { portalApp } from '../../portal/app';",
        'worker/dev/planted.ts': "import { portalApp } from '../../portal/app';",
      };
      for (const [path, text] of Object.entries(planted)) {
        await mkdir(join(dir, dirname(path)), { recursive: true });
        await writeFile(join(dir, path), `${text}\nexport const app = portalApp;\n`);
      }
      const biome = join(ROOT, 'node_modules/.bin/biome');
      const { stdout } = await promisify(execFile)(
        biome,
        ['lint', '--reporter=json', `--config-path=${dir}`, ...Object.keys(planted)],
        { cwd: dir },
      ).catch((error: { stdout: string }) => error);
      const report = JSON.parse(stdout) as {
        diagnostics: { category: string; message: string; location: { path: string } }[];
      };
      expect(
        report.diagnostics.map(({ category, message, location }) => ({
          path: location.path,
          category,
          message,
        })),
      ).toEqual([
        {
          path: 'worker/routes/planted.ts',
          category: 'lint/style/noRestrictedImports',
          message: expect.stringMatching(/^Production code never imports development-only code/),
        },
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
