import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { instrumentSource } from './instrument';

/**
 * A copy of a checkout in which every worker function says when it is entered
 * (instrument.ts), built as `npm run build` builds the development bundle. Only `worker/` is
 * copied; every other top-level entry is a link to the checkout's, so the client build
 * (dist/client), the portal, the screens and node_modules are the checkout's own.
 */

/** The worker code on production's path: not the development kit nor its entry. */
export function isTracedPath(path: string): boolean {
  return (
    /^worker\/.*\.tsx?$/.test(path) &&
    !path.endsWith('.d.ts') &&
    !path.startsWith('worker/dev/') &&
    path !== 'worker/dev.ts'
  );
}

/** Entries the tree makes itself rather than linking: its own build output and wrangler state. */
const NOT_LINKED = new Set(['worker', 'dist', 'wrangler.toml', '.git', '.wrangler']);

function copyWorker(repo: string, tree: string, folder: string): void {
  mkdirSync(join(tree, folder), { recursive: true });
  for (const entry of readdirSync(join(repo, folder), { withFileTypes: true })) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) {
      copyWorker(repo, tree, path);
    } else if (isTracedPath(path)) {
      writeFileSync(
        join(tree, path),
        instrumentSource(path, readFileSync(join(repo, path), 'utf8')),
      );
    } else {
      copyFileSync(join(repo, path), join(tree, path));
    }
  }
}

/** The build script's step that bundles the development entry, from the checkout's package.json. */
function developmentBuildStep(repo: string): string {
  const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const step = manifest.scripts.build
    ?.split('&&')
    .map((part) => part.trim())
    .find((part) => part.includes('--env development'));
  if (step === undefined) throw new Error(`${repo}/package.json's build has no development step`);
  return step;
}

/** Builds the traced tree of `repo` and its development bundle; answers the tree's path. */
export function buildTracedTree(repo: string): string {
  const client = join(repo, 'dist', 'client');
  if (!existsSync(join(client, '.vite', 'manifest.json'))) {
    throw new Error(`${client} is missing: run npm run build in ${repo} first`);
  }
  const name = createHash('sha256').update(repo).digest('hex').slice(0, 12);
  const tree = join(tmpdir(), 'geofunnel-walk', name);
  rmSync(tree, { recursive: true, force: true });
  mkdirSync(join(tree, 'dist'), { recursive: true });
  for (const entry of readdirSync(repo)) {
    if (!NOT_LINKED.has(entry)) symlinkSync(join(repo, entry), join(tree, entry));
  }
  // Copied, not linked: wrangler finds `main` and the migrations beside the file it reads.
  copyFileSync(join(repo, 'wrangler.toml'), join(tree, 'wrangler.toml'));
  symlinkSync(client, join(tree, 'dist', 'client'));
  copyWorker(repo, tree, 'worker');
  execSync(developmentBuildStep(repo), {
    cwd: tree,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PATH: `${join(repo, 'node_modules', '.bin')}:${process.env.PATH}`,
      WRANGLER_SEND_METRICS: 'false',
    },
  });
  return tree;
}
