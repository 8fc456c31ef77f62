import { useEffect, useState } from 'react';
import type { ExperimentDocument } from '../../shared/config/experiments';
import type { ConfigDocument, ConsoleState } from '../../shared/console-api/config';
import { withComposedChoices } from '../kit/composed-screens';
import { freeId, freshSeed } from '../kit/experiment-edits';
import { PageLink } from '../kit/PageLink';
import { StatusLine } from '../kit/StatusLine';
import { useStore } from '../kit/stores/atom';
import { $draft, duplicateExperiment } from '../kit/stores/draft';
import { openPage } from '../kit/stores/page';
import { AlertsWebhook } from './AlertsWebhook';
import { CreateExperiment } from './CreateExperiment';
import { DecisionDialog } from './DecisionDialog';
import { DeleteDialog } from './DeleteDialog';
import { EditExperimentDialog } from './EditExperimentDialog';
import { actionId, type CardAction, ExperimentCard } from './ExperimentCard';
import { ExperimentResults } from './ExperimentResults';
import {
  experimentStanding,
  GROUP_TEXTS,
  STANDING_GROUPS,
  type Standing,
} from './experiment-standing';
import { HoldoutCard } from './HoldoutCard';
import { LayerBars } from './LayerBars';
import { RouteDefaultDialog } from './RouteDefaultDialog';
import { StatusDialog } from './StatusDialog';
import {
  $experimentsStatus,
  EXPERIMENTS_STATUS_ID,
  loadExperimentResults,
} from './stores/experiments';

type Open = { id: string; action: CardAction } | null;

/** The holdout's page among the experiments': its card and its results. */
const HOLDOUT_PAGE = 'holdout';

/** Where focus goes when results are asked for: their heading. */
const RESULTS_TITLE_ID = 'experiment-results-title';

/** On an experiment's own page, its results, read as the page opens. */
function useResultsOfPage(only: string | null): void {
  useEffect(() => {
    if (only !== null) void loadExperimentResults(only, { phase: null });
  }, [only]);
}

/**
 * The experiments a marketer runs at once: the layers and their free space, each experiment with
 * what it changes for whom, a new one from a preset, start, pause, stop and the decision that ends
 * one, its results, and where alerts go. Every change goes into the same draft as the rest of the
 * config and is live once reviewed and published.
 */
export function Experiments(props: { state: ConsoleState; only?: string | null }) {
  const { state, only = null } = props;
  const draft = useStore($draft);
  const status = useStore($experimentsStatus);
  const [open, setOpen] = useState<Open>(null);
  useResultsOfPage(only);
  if (!draft) return null;
  const { document } = draft;
  const experiments = Object.entries(document.experiments.experiments).filter(
    ([id]) => only === null || id === only,
  );
  // The draft's composed screens are picked and named as the screens in code are.
  const screens = withComposedChoices(state.screens, document.content);
  const kinds = Object.fromEntries(screens.map((screen) => [screen.id, screen.kind]));
  const live = state.live.experiments.experiments;
  // Grouped by what visitors get now, so a card stays put while the draft changes it.
  const standings = experiments.map(([id, experiment]): Standings[number] => [
    id,
    experiment,
    experimentStanding(experiment, live[id]),
  ]);
  const openExperiment = open ? document.experiments.experiments[open.id] : undefined;
  const now = new Date();

  function duplicate(id: string): void {
    const copyId = freeId(`${id}-followup`, document.experiments.experiments);
    duplicateExperiment(id, copyId, freshSeed());
    $experimentsStatus.set(`Duplicated ${id} as the draft ${copyId}, with a new seed.`);
  }
  const focusStatus = () => window.document.getElementById(EXPERIMENTS_STATUS_ID)?.focus();

  function onAction(id: string, action: CardAction) {
    if (action.kind === 'duplicate') {
      duplicate(id);
      requestAnimationFrame(focusStatus);
      return;
    }
    if (action.kind === 'results') {
      showResults(id);
      return;
    }
    setOpen({ id, action });
  }

  const close = () => setOpen(null);
  // An experiment's results are on its own page (shared/console-api/pages.ts).
  const showResults = (id: string) => openPage('experiments', id, RESULTS_TITLE_ID);
  return (
    <section className="section" id="experiments" aria-labelledby="experiments-title">
      <h2 id="experiments-title">Experiments</h2>
      <StatusLine id={EXPERIMENTS_STATUS_ID} status={status} />
      <PageTop only={only} found={experiments.length > 0} document={document} now={now} />
      {only === HOLDOUT_PAGE ? null : (
        <StandingGroups standings={standings} document={document} now={now} onAction={onAction} />
      )}
      <PageBottom
        only={only}
        state={state}
        document={document}
        screens={screens}
        onHoldoutResults={() => showResults(HOLDOUT_PAGE)}
      />
      {open && openExperiment ? (
        <OpenDialog
          open={open}
          experiment={openExperiment}
          state={state}
          document={document}
          kinds={kinds}
          onClose={close}
          onDuplicate={() => {
            duplicate(open.id);
            // After the dialog's own focus return, which the closing frame runs first.
            requestAnimationFrame(() => requestAnimationFrame(focusStatus));
          }}
        />
      ) : null}
    </section>
  );
}

/**
 * The list's layers, or on an experiment's own page the way back to all of them, and what is
 * wrong with an address whose experiment the draft no longer has.
 */
function PageTop(props: {
  only: string | null;
  found: boolean;
  document: ConfigDocument;
  now: Date;
}) {
  const { only, found } = props;
  if (only === null) return <LayerBars document={props.document} now={props.now} />;
  return (
    <>
      <p>
        <PageLink area="experiments">All experiments</PageLink>
      </p>
      {only !== HOLDOUT_PAGE && !found ? (
        <p className="notice" role="alert">
          No experiment has the id {only} in the draft: it may have been deleted or renamed.
        </p>
      ) : null}
    </>
  );
}

/**
 * Below the cards: the holdout (on the list and its own page), an experiment's results (on its
 * page), and on the list the create form and where alerts go.
 */
function PageBottom(props: {
  only: string | null;
  state: ConsoleState;
  document: ConfigDocument;
  screens: ReturnType<typeof withComposedChoices>;
  onHoldoutResults(): void;
}) {
  const { only, state, document } = props;
  return (
    <>
      {only === null || only === HOLDOUT_PAGE ? (
        <HoldoutCard
          holdout={state.live.experiments.holdout}
          routing={state.live.routing}
          split={state.live.split}
          onResults={props.onHoldoutResults}
        />
      ) : null}
      {only === null ? null : <ExperimentResults />}
      {only === null ? <CreateExperiment document={document} screens={props.screens} /> : null}
      {only === null ? <AlertsWebhook webhook={document.experiments.alerts?.webhook} /> : null}
    </>
  );
}

type Standings = [string, ExperimentDocument, Standing][];

/** The experiments grouped by what visitors get now, each group with its cards. */
function StandingGroups(props: {
  standings: Standings;
  document: ConfigDocument;
  now: Date;
  onAction(id: string, action: CardAction): void;
}) {
  const { standings, document, now, onAction } = props;
  return (
    <div className="experiment-groups">
      {standings.length === 0 ? (
        <div className="block">
          <h3>Your experiments</h3>
          <p>No experiment yet: create one below.</p>
        </div>
      ) : null}
      {STANDING_GROUPS.map((group) => {
        const inGroup = standings.filter(([, , standing]) => standing.group === group);
        if (inGroup.length === 0) return null;
        const { title, about } = GROUP_TEXTS[group];
        const titleId = `experiments-group:${group}`;
        return (
          <div className="block" key={group}>
            <h3 id={titleId}>
              {title} ({inGroup.length})
            </h3>
            <p className="muted">{about}</p>
            <ul className="cards" aria-labelledby={titleId}>
              {inGroup.map(([id, experiment, standing]) => (
                <li key={id}>
                  <ExperimentCard
                    id={id}
                    experiment={experiment}
                    routing={document.routing}
                    standing={standing}
                    now={now}
                    onAction={(action) => onAction(id, action)}
                  />
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </div>
  );
}

/** The dialog of the card action open now: a status move, an edit, a delete or the decision. */
function OpenDialog(props: {
  open: NonNullable<Open>;
  experiment: ExperimentDocument;
  state: ConsoleState;
  document: ConfigDocument;
  kinds: Record<string, string>;
  onClose(): void;
  onDuplicate(): void;
}) {
  const { open, experiment, state, document, kinds, onClose, onDuplicate } = props;
  const live = state.live.experiments.experiments;
  return (
    <>
      {open.action.kind === 'move' ? (
        <StatusDialog
          id={open.id}
          experiment={experiment}
          move={open.action.move}
          openerId={actionId(open.id, open.action.move)}
          onClose={onClose}
        />
      ) : null}
      {open.action.kind === 'edit' ? (
        <EditExperimentDialog
          id={open.id}
          experiment={experiment}
          live={live[open.id]}
          document={document}
          openerId={actionId(open.id, 'edit')}
          onClose={onClose}
          onDuplicate={onDuplicate}
        />
      ) : null}
      {open.action.kind === 'delete' ? (
        <DeleteDialog
          id={open.id}
          experiment={experiment}
          published={Object.hasOwn(live, open.id)}
          openerId={actionId(open.id, 'delete')}
          onClose={onClose}
        />
      ) : null}
      {open.action.kind === 'route_default' ? (
        <RouteDefaultDialog
          id={open.id}
          experiment={experiment}
          author={state.author}
          kinds={kinds}
          openerId={actionId(open.id, 'route_default')}
          onClose={onClose}
        />
      ) : null}
      {open.action.kind === 'end' ? (
        <DecisionDialog
          id={open.id}
          experiment={experiment}
          author={state.author}
          kinds={kinds}
          openerId={actionId(open.id, 'end')}
          onClose={onClose}
        />
      ) : null}
    </>
  );
}
