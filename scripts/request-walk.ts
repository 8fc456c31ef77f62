import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { PROJECT_ROOT } from './local-platform';
import { countWalk } from './request-walk/count';
import { formatWalkReport, type WalkedRequest } from './request-walk/report';
import { type Checkout, MEASURED_REQUESTS } from './request-walk/requests';
import { buildTracedTree } from './request-walk/traced-tree';

/**
 * `npm run walk [-- --repo <checkout>] [--json]`: which worker files, and which rooms, a landing
 * GET, a purchase POST and a console publish pass through, and how often each comes back to a
 * room it had left. The checkout (this one unless `--repo`, which must have run `npm run build`)
 * is copied with every worker function traced (request-walk/traced-tree.ts), its development
 * bundle built and served with its own harness (scripts/built-worker.ts), and each request sent
 * after what a visitor or marketer does first (request-walk/requests.ts).
 */

const USAGE = `Usage: npm run walk [-- --repo <checkout>] [--json]
  --repo <dir>  the checkout to measure (built with npm run build); this one by default
  --json        the report as JSON`;

/**
 * How long the worker must print nothing before a walk is read: its queue batches wait up to
 * 1 s (built-worker.ts promptConsumers), and a request's waitUntil work ends well within that.
 */
const QUIET_MS = 1_500;
const POLL_MS = 50;

type Harness = typeof import('./built-worker');
type Logs = Record<string, unknown>[];

async function quiet(logs: Logs): Promise<void> {
  let seen = logs.length;
  let since = Date.now();
  while (Date.now() - since < QUIET_MS) {
    await new Promise((done) => setTimeout(done, POLL_MS));
    if (logs.length !== seen) {
      seen = logs.length;
      since = Date.now();
    }
  }
}

function walkedFiles(logs: Logs): string[] {
  return logs.flatMap((line) => (typeof line.walk === 'string' ? [line.walk] : []));
}

async function walkAll(checkout: Checkout, logs: Logs): Promise<WalkedRequest[]> {
  const walked: WalkedRequest[] = [];
  for (const prepare of MEASURED_REQUESTS) {
    const request = await prepare(checkout);
    await quiet(logs);
    logs.length = 0;
    const status = await request.send();
    await quiet(logs);
    walked.push({
      name: request.name,
      before: request.before,
      status,
      ...countWalk(walkedFiles(logs)),
    });
  }
  return walked;
}

function commitOf(repo: string): string {
  const commit = execFileSync('git', ['-C', repo, 'rev-parse', '--short', 'HEAD'], {
    encoding: 'utf8',
  }).trim();
  const changed = execFileSync('git', ['-C', repo, 'status', '--porcelain', '--', 'worker'], {
    encoding: 'utf8',
  });
  return changed.trim() === '' ? commit : `${commit} with uncommitted worker/ changes`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      repo: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const repo = resolve(values.repo ?? PROJECT_ROOT);
  const tree = buildTracedTree(repo);
  // The checkout's own harness, started in the tree, reads the bundle and the migrations by
  // paths relative to the working directory: the traced ones.
  process.chdir(tree);
  const harness = (await import(
    pathToFileURL(join(repo, 'scripts', 'built-worker.ts')).href
  )) as Harness;
  const worker = await harness.startBuiltWorker({ quiet: true });
  try {
    const requests = await walkAll({ repo, origin: worker.url.origin }, worker.logs);
    const report = { repo, commit: commitOf(repo), quietMs: QUIET_MS, requests };
    console.log(values.json ? JSON.stringify(report, null, 2) : formatWalkReport(report));
  } finally {
    await worker.stop();
  }
}

await main();
