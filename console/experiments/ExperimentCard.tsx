import type { ExperimentDocument } from '../../shared/config/experiments';
import type { RoutingDocument } from '../../shared/config/routing';
import type { Standing } from '../experiment-standing';
import {
  changeText,
  experimentAudienceText,
  MOVE_LABELS,
  movesOf,
  type StatusMove,
} from '../experiment-texts';
import { canArchive } from '../layer-space';
import { METRIC_NAMES, percentText } from '../result-texts';

/** What the card's buttons open. */
export type CardAction =
  | { kind: 'move'; move: StatusMove }
  | { kind: 'edit' }
  | { kind: 'delete' }
  | { kind: 'end' }
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
  const ended = experiment.status === 'stopped' || experiment.status === 'shipped';
  const canEnd =
    experiment.status === 'running' ||
    experiment.status === 'paused' ||
    (experiment.status === 'stopped' && experiment.decision === undefined);
  const editable =
    experiment.status === 'draft' ||
    experiment.status === 'running' ||
    experiment.status === 'paused';
  const moves = canArchive(experiment, now)
    ? [...movesOf(experiment.status), 'archive' as const]
    : movesOf(experiment.status);
  const { decision } = experiment;
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
      {decision ? (
        <p>
          Decided: <strong>{decision.result}</strong>,{' '}
          {decision.action === 'keep_control'
            ? 'the control kept'
            : decision.action === 'roll_out'
              ? `variant ${decision.variant} rolled out to its audience`
              : `variant ${decision.variant} made its routes' default`}
          {decision.reason ? ` (“${decision.reason}”)` : ''}.
        </p>
      ) : null}
      <p className="actions">
        {editable ? (
          <button
            type="button"
            className="button button--small"
            id={actionId(id, 'edit')}
            onClick={() => onAction({ kind: 'edit' })}
          >
            Edit {experiment.name}…
          </button>
        ) : null}
        {moves.map((move) => (
          <button
            key={move}
            type="button"
            className="button button--small"
            id={actionId(id, move)}
            onClick={() => onAction({ kind: 'move', move })}
          >
            {MOVE_LABELS[move]} {experiment.name}…
          </button>
        ))}
        {canEnd ? (
          <button
            type="button"
            className="button button--small"
            id={actionId(id, 'end')}
            onClick={() => onAction({ kind: 'end' })}
          >
            End {experiment.name} with a decision…
          </button>
        ) : null}
        {experiment.status === 'draft' ? null : (
          <button
            type="button"
            className="button button--small"
            id={actionId(id, 'results')}
            onClick={() => onAction({ kind: 'results' })}
          >
            Results of {experiment.name}
          </button>
        )}
        {ended || experiment.status === 'archived' || experiment.status === 'draft' ? (
          <button
            type="button"
            className="button button--small"
            id={actionId(id, 'duplicate')}
            onClick={() => onAction({ kind: 'duplicate' })}
          >
            Duplicate {experiment.name} for a follow-up
          </button>
        ) : null}
        {experiment.status === 'draft' || experiment.status === 'archived' ? (
          <button
            type="button"
            className="button button--small button--danger"
            id={actionId(id, 'delete')}
            onClick={() => onAction({ kind: 'delete' })}
          >
            Delete {experiment.name}…
          </button>
        ) : null}
      </p>
    </article>
  );
}
