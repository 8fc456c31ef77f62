import { availableParallelism, loadavg } from 'node:os';
import { parseContent } from '../../shared/config/content';
import { contentIssues } from '../../worker/content/check';
import { shownContent } from '../../worker/content/screen-content';
import { SUPPORTED_LANGUAGES, shippedTranslator } from '../../worker/i18n';
import { holdEveryLanguage } from '../every-language';
import { BENCH_CONTENT_SCREEN, benchContent, benchPicture } from './bench-content';
import { median, positiveInt, timeRuns } from './timing';

/**
 * `npm run bench -- content`: the CPU a page spends on a marketer's content (its budget: at
 * most 0.1 ms a page), measured as the page route spends it: the screen's arrangement, its
 * translator with the copy laid over the request's, and its picture, looked up for each arriving
 * visitor in one of the shipped languages, then the overridden headline asked of the translator
 * as the hero asks it. The rendered body is kept per translator (worker/routes/screens/), so
 * what is left per page is this. Also what a new content version costs once an isolate: its parse
 * and the publish rules' check. Runs in Node's V8, the engine workerd embeds; exits 1 over
 * budget. `npm run bench` measures the same landing drawn in workerd against it in code.
 *
 * Env: BENCH_CONTENT_RUNS (default 15), BENCH_CONTENT_PAGES (pages a run, default 20000).
 */

const BUDGET_US_PER_PAGE = 100;

export async function runContentBench(): Promise<number> {
  const runs = positiveInt('BENCH_CONTENT_RUNS', 15);
  const pages = positiveInt('BENCH_CONTENT_PAGES', 20_000);
  const picture = await benchPicture();
  const content = benchContent(picture);
  const text = JSON.stringify(content);
  const sizes = new Map([[picture.id, { width: picture.width, height: picture.height }]]);
  holdEveryLanguage();
  const translators = SUPPORTED_LANGUAGES.map((language) => ({
    language,
    t: shippedTranslator(language),
  }));
  const title = `screens.${BENCH_CONTENT_SCREEN}.title`;
  // Kept and printed, so the optimiser cannot drop the work as unused.
  let checksum = 0;
  const perPage = timeRuns(runs, pages, (call) => {
    const { language, t } = translators[call % translators.length]!;
    const shown = shownContent(content, BENCH_CONTENT_SCREEN, language, t);
    checksum += (shown.arrangement?.length ?? 0) + String(shown.t(title)).length;
    checksum += shown.picture?.alt.length ?? 0;
  });
  const inCode = timeRuns(runs, pages, (call) => {
    const { t } = translators[call % translators.length]!;
    checksum += String(t(title)).length;
  });
  const versions = timeRuns(runs, 50, () => {
    const parsed = parseContent(text);
    checksum += parsed.ok ? contentIssues(parsed.value, sizes).length + 1 : 0;
  });

  const page = median(perPage);
  const ok = page <= BUDGET_US_PER_PAGE;
  const [load = 0] = loadavg();
  const fixed = (values: readonly number[]) => values.map((value) => value.toFixed(2)).join(' ');
  console.log(
    `Content: ${BENCH_CONTENT_SCREEN} drawn from a content document (${text.length} B of JSON:` +
      ` ${SUPPORTED_LANGUAGES.length} languages' headline, the sections' order, a picture).` +
      `\n  per page, the arrangement, the translator, the picture and the headline: ${page.toFixed(2)} µs` +
      ` median of ${runs} runs of ${pages} ${ok ? '✓' : '✗'} (budget ${BUDGET_US_PER_PAGE} µs = 0.1 ms;` +
      ` runs ${fixed(perPage)})` +
      `\n  the same headline asked of the bundled copy alone: ${median(inCode).toFixed(2)} µs` +
      `\n  per version, once an isolate: parse and the publish rules' check ${median(versions).toFixed(0)} µs` +
      `\n  Machine: ${availableParallelism()} CPUs, load average ${load.toFixed(1)}. (checksum ${checksum})`,
  );
  return ok ? 0 : 1;
}
