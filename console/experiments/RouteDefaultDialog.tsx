import { useEffect, useId, useRef, useState } from 'react';
import type { ExperimentDocument } from '../../shared/config/experiments';
import { ConfirmActions } from '../kit/ConfirmActions';
import { Dialog } from '../kit/Dialog';
import { reviewAndFocusPublish } from '../kit/review-next';
import { $draft, decideExperiment } from '../kit/stores/draft';
import type { DecisionDialogProps } from './DecisionDialog';
import { routesText } from './experiment-texts';
import { type RouteDefaultReach, routeDefaultReach } from './route-default-reach';

/**
 * A rolled-out winner made the default of the routes its experiment names (docs/experiments.md,
 * "Ending: the decision"): the decision's action becomes `route_default`, its variant is baked
 * into the routes, and the experiment holds its layer no more, so it can be archived and its
 * range taken by the next test. Asked of the worker's check first, as the End dialog does: where
 * something would hide the variant from the routes' new visitors, the dialog says what and offers
 * nothing; where only the split test would, the routes leave the split in the same decision.
 */
export function RouteDefaultDialog(props: DecisionDialogProps) {
  const { id, experiment, author, kinds, onClose } = props;
  const titleId = useId();
  const decision = experiment.decision;
  const variant = decision?.variant;
  const reach = useReach(id, variant, kinds, author);
  if (!decision || variant === undefined) return null;
  const routes = routesText(experiment.audience.routes);
  const hidden = reach?.hidden[variant] ?? null;
  const leaveSplit = reach?.leavingSplit[variant];
  const possible = reach !== null && (hidden === null || leaveSplit !== undefined);

  function confirm() {
    if (!decision || variant === undefined) return;
    decideExperiment(
      id,
      { ...decision, action: 'route_default', at: new Date().toISOString(), by: author },
      kinds,
      leaveSplit,
    );
    onClose();
    void reviewAndFocusPublish(
      `Variant ${variant} is the default of ${routes} in the draft. Publish it below; ${experiment.name} can then be archived.`,
    );
  }

  return (
    <Dialog titleId={titleId} returnFocusId={props.openerId} onClose={onClose}>
      <h3 id={titleId}>
        Make {variant} the default of {routes}?
      </h3>
      <p>
        {experiment.name} rolls variant {variant} out to its audience. Made the default of {routes},
        every new visitor of {routes} gets it{experimentLimits(experiment)}, and {experiment.name}{' '}
        holds no part of layer {experiment.layer} once its drain is over: archive it then, and the
        next test can take its range.
      </p>
      {reach === null ? (
        <p className="muted">Checking what the routes’ visitors would see…</p>
      ) : null}
      {hidden && !leaveSplit ? (
        <p className="notice notice--warning">
          {hidden.charAt(0).toUpperCase()}
          {hidden.slice(1)}.
        </p>
      ) : null}
      {leaveSplit ? (
        <p>
          The split test draws {leaveSplit.join(', ')} and would hide it there, so this takes{' '}
          {leaveSplit.join(', ')} out of the split test: its visitors walk the route’s own flow from
          now on; those already in a split variant keep it.
        </p>
      ) : null}
      <ConfirmActions onCancel={onClose}>
        {possible ? (
          <button type="button" className="button button--primary" onClick={confirm}>
            Make {variant} the default of {routes}
          </button>
        ) : null}
      </ConfirmActions>
    </Dialog>
  );
}

/** What the experiment's audience limited beyond its routes, which the routes' default does not. */
function experimentLimits(experiment: ExperimentDocument): string {
  const { audience } = experiment.audience;
  const own = experiment.audience.groups?.length ?? 0;
  if (audience === undefined && own === 0) return '';
  return ` (not only those of ${audience === undefined ? 'its own conditions' : `audience ${audience}`}, as now)`;
}

/** The worker's check of the variant as the routes' default, read once on opening; null: reading. */
function useReach(
  id: string,
  variant: string | undefined,
  kinds: Readonly<Record<string, string>>,
  author: string,
): RouteDefaultReach | null {
  const [reach, setReach] = useState<RouteDefaultReach | null>(null);
  const opened = useRef({ kinds, author });
  useEffect(() => {
    const start = $draft.get();
    if (!start || variant === undefined) return;
    let current = true;
    const { kinds, author } = opened.current;
    void routeDefaultReach(start.base, start.document, id, [variant], kinds, author).then(
      (answer) => {
        if (current) setReach(answer);
      },
    );
    return () => {
      current = false;
    };
  }, [id, variant]);
  return reach;
}
