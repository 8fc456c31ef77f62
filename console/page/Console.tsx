import { Alerts } from '../alerts/Alerts';
import { newAlertsText } from '../alerts/alert-text';
import { $alerts } from '../alerts/stores/alerts';
import { ContentEditor } from '../content/ContentEditor';
import { Copy } from '../copy/Copy';
import { Experiments } from '../experiments/Experiments';
import { History } from '../history/History';
import { LoadFailure } from '../kit/FailureNotice';
import { useStore } from '../kit/stores/atom';
import { $live } from '../kit/stores/live';
import { loadConsole } from '../kit/stores/publishing';
import { Reminders } from '../reminders/Reminders';
import { Results } from '../results/Results';
import { EditPublish } from '../split/EditPublish';
import { Overview } from '../split/Overview';
import { ToolsAndAgents } from '../team/ToolsAndAgents';
import { Traffic } from '../traffic/Traffic';

/**
 * The marketers' console: what is live, its results, the alerts raised, the draft and its
 * publish, the history, what tools and agents prepared, and for operators the renewal reminders
 * to come.
 */
export function Console() {
  const live = useStore($live);
  const alerts = useStore($alerts);
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
            <a href="#overview">Overview</a>
            <a href="#traffic">Traffic</a>
            <a href="#experiments">Experiments</a>
            <a href="#results">Results</a>
            <a href="#alerts">
              Alerts{alerts.kind === 'ready' ? newAlertsText(alerts.answer.unacknowledged) : ''}
            </a>
            <a href="#content">Content</a>
            <a href="#edit">Edit and publish</a>
            <a href="#copy">Copy</a>
            <a href="#history">History</a>
            <a href="#tools">Tools and agents</a>
            <a href="#reminders">Reminders</a>
          </nav>
        </div>
      </header>
      <main className="console-main">
        {live.kind === 'loading' ? (
          <p className="muted" role="status">
            Loading the live config…
          </p>
        ) : null}
        {live.kind === 'failed' ? <LoadFailure message={live.message} retry={loadConsole} /> : null}
        {live.kind === 'ready' ? (
          <>
            <Overview state={live.state} />
            <Traffic state={live.state} />
            <Experiments state={live.state} />
            <Results livePhase={live.state.live.split.phase ?? 1} />
            <Alerts
              rehearsal={live.state.rehearsal === true}
              simulation={live.state.simulation === true}
            />
            <ContentEditor />
            <EditPublish state={live.state} />
            <Copy />
            <History />
            <ToolsAndAgents />
            <Reminders />
          </>
        ) : null}
      </main>
    </>
  );
}
