import type { ExperimentDecision, ExperimentDocument } from '../../shared/config/experiments';
import type { RoutingDocument } from '../../shared/config/routing';
import { METRIC_NAMES, percentText } from '../kit/result-texts';
import type { Standing } from './experiment-standing';
import {
  changeText,
  experimentAudienceText,
  MOVE_LABELS,
  movesOf,
  type StatusMove,
} from './experiment-texts';
import { canArchive, rollsOut } from './layer-space';

/** What the card's buttons open. */
export type CardAction =
  | { kind: 'move'; move: StatusMove }
  | { kind: 'edit' }
  | { kind: 'delete' }
  | { kind: 'end' }
  | { kind: 'route_default' }
  | { kind: 'duplicate' }
  | { kind: 'results' };

/** The id of a card's button, where focus goes back after its dialog. */
export const actionId = (id: string, action: string) => `experiment-${action}:${id}`;

/**
 * One experiment: its status for visitors and what the draft changes of it, its layer, who enters, each variant and what it changes, its decision
 * once ended, and what can be done with it now.
 */
export function ExperimentCard({
  id,
  experiment,
  routing,
  standing,
  now,
  onAction,
}: {
  id: string;
  experiment: ExperimentDocument;
  routing: RoutingDocument;
  /** What visitors get now, and what publishing the draft changes for it. */
  standing: Standing;
  /** When the drain of an ended experiment is read, to offer archiving it. */
  now: Date;
  onAction(action: CardAction): void;
}) {
  const titleId = `experiment-title:${id}`;
  const total = Object.values(experiment.variants).reduce((sum, v) => sum + v.weight, 0);
  return (
    <article className="card experiment-card" aria-labelledby={titleId}>
      <h4 className="card__title" id={titleId}>
        {experiment.name}{' '}
        <span className={`badge badge--${standing.status}`}>{standing.badge}</span>
      </h4>
      {standing.pending ? <p className="experiment-card__pending">{standing.pending}</p> : null}
      <p className="muted">
        {id} · layer {experiment.layer}
        {experiment.metrics?.primary
          ? ` · decided on ${METRIC_NAMES[experiment.metrics.primary]}`
          : ''}
      </p>
      {experiment.hypothesis ? <p>{experiment.hypothesis}</p> : null}
      <p>{experimentAudienceText(experiment, routing)}</p>
      <ul className="experiment-card__variants" aria-label={`Variants of ${experiment.name}`}>
        {Object.entries(experiment.variants).map(([key, variant]) => (
          <li key={key}>
            <strong>{variant.name ?? key}</strong>
            {key === experiment.control ? ' (control)' : ''},{' '}
            {total > 0 ? percentText(variant.weight / total) : '0%'}: changes{' '}
            {changeText(variant.change)}
          </li>
        ))}
      </ul>
      {standing.ramp ? <p>{standing.ramp}</p> : null}
      {experiment.decision ? <DecisionLine decision={experiment.decision} /> : null}
      <CardActions id={id} experiment={experiment} now={now} onAction={onAction} />
    </article>
  );
}

/** What an ended experiment was decided on, and its reason. */
function DecisionLine({ decision }: { decision: ExperimentDecision }) {
  return (
    <p>
      Decided: <strong>{decision.result}</strong>,{' '}
      {decision.action === 'keep_control'
        ? 'the control kept'
        : decision.action === 'roll_out'
          ? `variant ${decision.variant} rolled out to its audience`
          : `variant ${decision.variant} made its routes' default`}
      {decision.reason ? ` (“${decision.reason}”)` : ''}.
    </p>
  );
}

/** What can be done with the experiment now: each button opens its action. */
function CardActions(props: {
  id: string;
  experiment: ExperimentDocument;
  now: Date;
  onAction(action: CardAction): void;
}) {
  const { id, experiment, onAction } = props;
  const { status, name } = experiment;
  const ended = status === 'stopped' || status === 'shipped';
  const canEnd =
    status === 'running' ||
    status === 'paused' ||
    (status === 'stopped' && experiment.decision === undefined);
  const editable = status === 'draft' || status === 'running' || status === 'paused';
  const moves = canArchive(experiment, props.now)
    ? [...movesOf(status), 'archive' as const]
    : movesOf(status);
  const button = (key: string, action: CardAction, text: string, danger = false) => (
    <button
      key={key}
      type="button"
      className={danger ? 'button button--small button--danger' : 'button button--small'}
      id={actionId(id, key)}
      onClick={() => onAction(action)}
    >
      {text}
    </button>
  );
  return (
    <p className="actions">
      {editable ? button('edit', { kind: 'edit' }, `Edit ${name}…`) : null}
      {moves.map((move) => button(move, { kind: 'move', move }, `${MOVE_LABELS[move]} ${name}…`))}
      {canEnd ? button('end', { kind: 'end' }, `End ${name} with a decision…`) : null}
      {rollsOut(experiment) && (experiment.audience.routes?.length ?? 0) > 0
        ? button(
            'route_default',
            { kind: 'route_default' },
            `Make ${experiment.decision?.variant} the default of its routes…`,
          )
        : null}
      {status === 'draft' ? null : button('results', { kind: 'results' }, `Results of ${name}`)}
      {ended || status === 'archived' || status === 'draft'
        ? button('duplicate', { kind: 'duplicate' }, `Duplicate ${name} for a follow-up`)
        : null}
      {status === 'draft' || status === 'archived'
        ? button('delete', { kind: 'delete' }, `Delete ${name}…`, true)
        : null}
    </p>
  );
}
