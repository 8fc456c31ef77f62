import { useEffect } from 'react';
import type { ConsoleState } from '../../shared/console-api/config';
import {
  CONSOLE_AREAS,
  type ConsoleArea,
  type ConsolePage,
  consolePath,
} from '../../shared/console-api/pages';
import { Alerts } from '../alerts/Alerts';
import { newAlertsText } from '../alerts/alert-text';
import { $alerts } from '../alerts/stores/alerts';
import { ContentEditor } from '../content/ContentEditor';
import { Copy } from '../copy/Copy';
import { Experiments } from '../experiments/Experiments';
import { FunnelReport } from '../funnel/FunnelReport';
import { History } from '../history/History';
import { LoadFailure } from '../kit/FailureNotice';
import { PageLink } from '../kit/PageLink';
import { useStore } from '../kit/stores/atom';
import { useHasEdits } from '../kit/stores/draft';
import { $live } from '../kit/stores/live';
import { $page } from '../kit/stores/page';
import { loadConsole } from '../kit/stores/publishing';
import { Quiz } from '../quiz/Quiz';
import { Reminders } from '../reminders/Reminders';
import { Results } from '../results/Results';
import { EditPublish } from '../split/EditPublish';
import { Overview } from '../split/Overview';
import { Team } from '../team/Team';
import { Traffic } from '../traffic/Traffic';
import { ConsoleSearch } from './ConsoleSearch';

/** The page the address names (console/kit/stores/page.ts), drawn from what is live. */
export function CurrentPage({ state }: { state: ConsoleState }) {
  return <AreaPage page={useStore($page)} state={state} />;
}

/** Each area's page; an experiment, screen or version its thing's page. */
function AreaPage({ page, state }: { page: ConsolePage; state: ConsoleState }) {
  switch (page.area) {
    case 'overview':
      return <Overview state={state} />;
    case 'traffic':
      return <Traffic state={state} />;
    case 'funnel':
      return <FunnelReport state={state} />;
    case 'experiments':
      return <Experiments state={state} only={page.id} />;
    case 'results':
      return <Results livePhase={state.live.split.phase ?? 1} />;
    case 'alerts':
      return <Alerts rehearsal={state.rehearsal === true} simulation={state.simulation === true} />;
    case 'content':
      return <ContentEditor screen={page.id} />;
    case 'quiz':
      return <Quiz question={page.id} />;
    case 'publish':
      return <EditPublish state={state} />;
    case 'copy':
      return <Copy />;
    case 'history':
      return <History only={page.id} />;
    case 'team':
      return <Team />;
    case 'reminders':
      return <Reminders />;
  }
}

/** The areas in the navigation, in the order a marketer meets them. */
const NAVIGATION = Object.keys(CONSOLE_AREAS) as ConsoleArea[];

/**
 * The marketers' console: a page per area (shared/console-api/pages.ts), and per experiment,
 * screen and version, each at its own address: what is live, its results, the alerts raised, the
 * draft and its publish, the history, what tools and agents prepared, and for operators the
 * renewal reminders to come. The header's search finds any of them by name, and a bar on every
 * page says when the draft has edits waiting for review.
 */
export function Console() {
  const live = useStore($live);
  const alerts = useStore($alerts);
  const page = useStore($page);
  useEffect(() => {
    document.title = `${CONSOLE_AREAS[page.area].title}${page.id ? `: ${page.id}` : ''} · Geofunnel console`;
  }, [page]);
  return (
    <>
      <header className="console-header">
        <div className="console-header__inner">
          <h1>Geofunnel console</h1>
          {live.kind === 'ready' ? (
            <p className="muted">
              Signed in as <strong>{live.state.author}</strong>
            </p>
          ) : null}
          <nav aria-label="Sections">
            {NAVIGATION.map((area) => (
              <PageLink key={area} area={area} current="area">
                {CONSOLE_AREAS[area].title}
                {area === 'alerts' && alerts.kind === 'ready'
                  ? newAlertsText(alerts.answer.unacknowledged)
                  : ''}
              </PageLink>
            ))}
          </nav>
          {live.kind === 'ready' ? <ConsoleSearch state={live.state} /> : null}
        </div>
      </header>
      {/* Which page it draws, for the focus that waits for it (console/kit/stores/page.ts). */}
      <main className="console-main" data-page={consolePath(page.area, page.id)}>
        {live.kind === 'loading' ? (
          <p className="muted" role="status">
            Loading the live config…
          </p>
        ) : null}
        {live.kind === 'failed' ? <LoadFailure message={live.message} retry={loadConsole} /> : null}
        {live.kind === 'ready' ? (
          <>
            {page.area === 'publish' ? null : <DraftWaiting />}
            <CurrentPage state={live.state} />
          </>
        ) : null}
      </main>
    </>
  );
}

/** On every page but the publish one: the draft's edits wait, and where to review them. */
function DraftWaiting() {
  const hasEdits = useHasEdits();
  if (!hasEdits) return null;
  return (
    <p className="notice draft-waiting">
      Your draft has edits that are not published yet.{' '}
      <PageLink area="publish">Review and publish them</PageLink>
    </p>
  );
}
