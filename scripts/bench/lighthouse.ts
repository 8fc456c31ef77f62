import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_FLAGS } from '../chromium';
import { type LaunchedChrome, loadLighthouse } from './tools';

// ---------------------------------------------------------------------------------------------
// Lighthouse

export interface LighthouseRun {
  score: number | null;
  lcpMs: number | undefined;
  tbtMs: number | undefined;
  cls: number | undefined;
  /** Longest simulated main-thread task; undefined when none reached the 50 ms threshold. */
  maxTaskMs: number | undefined;
  /** The element Lighthouse took as the largest contentful paint: its CSS selector and tag. */
  lcpElement: string | undefined;
  /** LCP's render delay: from the element's resources being ready to its paint. */
  lcpRenderDelayMs: number | undefined;
  error: string | undefined;
}

interface LcpElementDetails {
  type: 'list';
  items: { type: string; items: Record<string, unknown>[] }[];
}

/**
 * The LCP element and its render delay, from the audit `largest-contentful-paint-element`
 * (Lighthouse 12: a list of an element table and a phase table, the phases in a fixed order:
 * TTFB, load delay, load time, render delay).
 */
function lcpElementOf(details: unknown): Pick<LighthouseRun, 'lcpElement' | 'lcpRenderDelayMs'> {
  const list = details as LcpElementDetails | undefined;
  if (list?.type !== 'list') return { lcpElement: undefined, lcpRenderDelayMs: undefined };
  const node = list.items[0]?.items[0]?.node as { selector?: string; snippet?: string } | undefined;
  const tag = node?.snippet?.match(/^<([a-z0-9-]+)/i)?.[1];
  const selector = node?.selector?.split(' > ').slice(-2).join(' > ');
  const phases = list.items[1]?.items ?? [];
  const renderDelay = phases[3]?.timing;
  return {
    lcpElement: selector ?? tag,
    lcpRenderDelayMs: typeof renderDelay === 'number' ? renderDelay : undefined,
  };
}

export async function startChrome(
  chromePath: string,
): Promise<{ chrome: LaunchedChrome; profile: string }> {
  const { launch } = await loadLighthouse();
  const profile = await mkdtemp(join(tmpdir(), 'geofunnel-bench-chrome-'));
  try {
    const chrome = await launch({
      chromePath,
      chromeFlags: CHROMIUM_FLAGS,
      userDataDir: profile,
      logLevel: 'silent',
    });
    return { chrome, profile };
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
}

/**
 * One Lighthouse run with its defaults: mobile form factor and simulated throttling, which
 * computes the slow-phone timings from a local trace, so nothing is downloaded. Storage is
 * reset before each run, so the landing is measured as a first visit (no cookies).
 */
export async function runLighthouse(url: URL, port: number): Promise<LighthouseRun> {
  const { lighthouse } = await loadLighthouse();
  const result = await lighthouse(url.href, {
    port,
    logLevel: 'error',
    output: 'json',
    onlyCategories: ['performance'],
    // The full-page screenshot only feeds the report viewer and costs seconds per run.
    disableFullPageScreenshot: true,
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url.href}`);
  const { audits, categories, runtimeError } = result.lhr;
  const longestTask = audits['long-tasks']?.details;
  const firstTask =
    longestTask?.type === 'table' ? (longestTask.items[0] as { duration?: number }) : undefined;
  return {
    score: categories.performance?.score ?? null,
    lcpMs: audits['largest-contentful-paint']?.numericValue,
    tbtMs: audits['total-blocking-time']?.numericValue,
    cls: audits['cumulative-layout-shift']?.numericValue,
    maxTaskMs: firstTask?.duration,
    ...lcpElementOf(audits['largest-contentful-paint-element']?.details),
    error: runtimeError?.message,
  };
}
