import { useState } from 'react';
import type { ConsoleState } from '../../shared/console-api/config';
import type { ConsoleArea } from '../../shared/console-api/pages';
import { findKeys } from '../copy/copy-text';
import { $copy, $copySelected, loadCopy } from '../copy/stores/copy';
import { PageLink } from '../kit/PageLink';
import { holdsEveryWord } from '../kit/search-words';
import { useStore } from '../kit/stores/atom';
import { $draft } from '../kit/stores/draft';
import { $history } from '../kit/stores/history';

/** How many of each kind a search lists; more words narrow it. */
const SHOWN_PER_KIND = 5;

/** One thing found: its page, what it is and its name. */
interface Found {
  key: string;
  area: ConsoleArea;
  id: string | null;
  text: string;
  /** What following it does besides opening its page (a text is selected in Copy). */
  onFollow?: () => void;
}

/** The experiments, routes, screens and versions whose names or ids hold every word. */
function foundInConfig(
  holds: (text: string) => boolean,
  state: ConsoleState,
  history: ReturnType<typeof $history.get>,
): Found[] {
  const document = $draft.get()?.document ?? state.live;
  const experiments: Found[] = Object.entries(document.experiments.experiments)
    .filter(([id, experiment]) => holds(`${experiment.name} ${id}`))
    .map(([id, experiment]) => ({
      key: `experiment:${id}`,
      area: 'experiments' as const,
      id,
      text: `Experiment ${experiment.name} (${id})`,
    }));
  const routes: Found[] = document.routing.routes
    .filter((route) => holds(`${route.id} ${route.audience ?? ''} route`))
    .map((route) => ({
      key: `route:${route.id}`,
      area: 'traffic' as const,
      id: null,
      text: `Route ${route.id}, in Traffic`,
    }));
  const screens: Found[] = state.screens
    .filter((screen) => holds(`${screen.id} ${screen.kind} screen`))
    .map((screen) => ({
      key: `screen:${screen.id}`,
      area: 'content' as const,
      id: screen.id,
      text: `Screen ${screen.id} (${screen.kind}), in Content`,
    }));
  const versions: Found[] =
    history.kind === 'ready'
      ? history.versions
          .filter((version) => holds(`${version.id} ${version.note} ${version.author}`))
          .map((version) => ({
            key: `version:${version.id}`,
            area: 'history' as const,
            id: version.id,
            text: `Version ${version.id}: ${version.note || 'no note'}`,
          }))
      : [];
  return [experiments, routes, screens, versions].flatMap((kind) => kind.slice(0, SHOWN_PER_KIND));
}

/** The texts (Copy's keys) that hold every word, as Copy's own search finds them. */
function foundTexts(query: string, copy: ReturnType<typeof $copy.get>): Found[] {
  if (copy.kind !== 'ready') return [];
  return findKeys(copy.state.keys, query, copy.state.live)
    .slice(0, SHOWN_PER_KIND)
    .map((key) => ({
      key: `text:${key.key}`,
      area: 'copy' as const,
      id: null,
      text: `Text “${key.english}” (${key.key}), in Copy`,
      onFollow: () => $copySelected.set(key.key),
    }));
}

/**
 * The header's search: an experiment, a route, a screen, a text or a version by its name, id or
 * words, each a link to its page. The texts are read the first time the search is used, as the
 * Copy page reads them.
 */
export function ConsoleSearch({ state }: { state: ConsoleState }) {
  const [query, setQuery] = useState('');
  const history = useStore($history);
  const copy = useStore($copy);
  const holds = holdsEveryWord(query);
  const found = holds ? [...foundInConfig(holds, state, history), ...foundTexts(query, copy)] : [];
  return (
    <search className="console-search">
      <label htmlFor="console-search">Search the console</label>
      <input
        id="console-search"
        className="input"
        type="search"
        placeholder="An experiment, route, screen, text or version"
        value={query}
        onFocus={() => {
          if ($copy.get().kind !== 'ready') void loadCopy();
        }}
        onChange={(event) => setQuery(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setQuery('');
        }}
      />
      {holds ? (
        <div className="console-search__found">
          <p className="muted" role="status">
            {found.length === 0
              ? 'Nothing found: try a name, an id or other words.'
              : `${found.length} found`}
          </p>
          {found.length > 0 ? (
            <ul aria-label="Found in the console">
              {found.map((each) => (
                <li key={each.key}>
                  <PageLink
                    area={each.area}
                    id={each.id}
                    onFollow={() => {
                      each.onFollow?.();
                      setQuery('');
                    }}
                  >
                    {each.text}
                  </PageLink>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </search>
  );
}
