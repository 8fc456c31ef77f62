import type { ContentDocument } from '../../shared/config/content';
import type { CopyDocument } from '../../shared/config/copy';
import { d1Runner, versionStore } from '../config/versions';
import type { Bindings } from '../env';
import type { CopyVersionStore } from '../translations/copy-versions';

/**
 * What the console reads to tell a translation written for an English that has changed since
 * (worker/content/languages.ts): the documents before the one judged, newest first. Versions
 * further back than this are not read; a text unchanged through all of them counts as written
 * in the oldest.
 */
const TRANSLATION_HISTORY = 50;

/** The live content, then the content of the newest versions. */
export async function contentHistory(
  env: Pick<Bindings, 'CONFIG_DB'>,
  live: ContentDocument,
): Promise<ContentDocument[]> {
  const versions = versionStore(d1Runner(env.CONFIG_DB));
  return [live, ...(await versions.contents(TRANSLATION_HISTORY))];
}

/** The live copy, then the copy of the newest copy versions. */
export async function copyHistory(
  versions: CopyVersionStore,
  live: CopyDocument,
): Promise<CopyDocument[]> {
  const recent = await versions.list(TRANSLATION_HISTORY);
  return [live, ...recent.map((version) => version.copy)];
}
