import { type ReactNode, useEffect, useState } from 'react';
import type {
  ArmSource,
  ServedScreen,
  VisitorArm,
  VisitorGetsAnswer,
  VisitorGetsRequest,
} from '../../shared/console-api/routes';
import { askVisitorGets } from './api';
import { FlowRow } from './FlowRow';
import { refusalText } from './stores/loaded';

/**
 * What the console says a visitor gets, read from the worker's answer (POST
 * CONSOLE_API.visitorGets), which the edge's own code works out: the console keeps no model of
 * its own of a visitor's funnel (docs/marketers.md, "What a visitor gets").
 */

/** The answer being asked for, given, or not to be had. */
export type VisitorGetsState =
  | { kind: 'asking' }
  | { kind: 'answered'; answer: VisitorGetsAnswer }
  | { kind: 'failed'; message: string };

/**
 * The last answer to each question (request and live version) this visit: a page opened again
 * shows it at once while it is asked again, so its lines do not grow under the pointer of the
 * person aiming at the page (a route's plan boxes below them moved as the answers arrived). The
 * same question may still get another answer (a ramp's step, a scheduled start), so it is always
 * asked again, and the new answer replaces the kept one. One short line per route and variant
 * shown: a visit keeps a few dozen.
 */
const lastAnswers = new Map<string, VisitorGetsState & { kind: 'answered' }>();

/**
 * The worker's answer for `request`, asked again whenever `request` or `version` (the live
 * version it is asked of) changes; an older question's answer is dropped. Until it arrives the
 * last answer to the same question this visit stands, if there is one.
 */
export function useVisitorGets(request: VisitorGetsRequest, version: string): VisitorGetsState {
  // One string for what is asked and of which version: the effect runs again when either changes.
  const question = JSON.stringify({ request, version });
  const [state, setState] = useState<VisitorGetsState>(
    () => lastAnswers.get(question) ?? { kind: 'asking' },
  );
  useEffect(() => {
    let current = true;
    setState(lastAnswers.get(question) ?? { kind: 'asking' });
    const { request: asked } = JSON.parse(question) as { request: VisitorGetsRequest };
    void askVisitorGets(asked).then((answer) => {
      if (!current) return;
      if (!answer.ok) {
        lastAnswers.delete(question);
        setState({ kind: 'failed', message: refusalText(answer.refusal) });
        return;
      }
      const answered = { kind: 'answered', answer: answer.value } as const;
      lastAnswers.set(question, answered);
      setState(answered);
    });
    return () => {
      current = false;
    };
  }, [question]);
  return state;
}

/** "one_pager_ai", or "one_pager (content variant testimonials_first)". */
export function screenText(screen: ServedScreen | null): string {
  if (screen === null) return 'none';
  return screen.variant ? `${screen.ref} (content variant ${screen.variant})` : screen.ref;
}

const SOURCE_WORDS: Record<ArmSource, string> = {
  chosen: 'as chosen',
  pinned: 'kept from an earlier visit',
  drawn: 'drawn for this visitor',
  rolled_out: 'rolled out',
  control: 'the control: what a visitor not drawn yet sees',
};

/** "AI landing: ai (rolled out)". */
function armText(arm: VisitorArm): string {
  return `${arm.name}: ${arm.variant} (${SOURCE_WORDS[arm.source]})`;
}

/** The arms that change what everyone of the route gets: rolled-out winners, in words. */
export function rolledOutText(answer: VisitorGetsAnswer): string | null {
  const rolled = answer.arms.filter((arm) => arm.source === 'rolled_out');
  if (rolled.length === 0) return null;
  return rolled.map((arm) => `${arm.name}’s ${arm.variant} is rolled out`).join('; ');
}

/** Each experiment's arm for the visitor, as a list a screen reader names. */
export function ServedArms({ answer, label }: { answer: VisitorGetsAnswer; label: string }) {
  if (answer.arms.length === 0) return <p className="muted">No experiment takes this visitor.</p>;
  return (
    <ul className="changes" aria-label={label}>
      {answer.arms.map((arm) => (
        <li key={arm.experiment}>{armText(arm)}</li>
      ))}
    </ul>
  );
}

/**
 * What visitors get, as `statement` says it of the answer (given the rolled-out winners as
 * " (AI landing’s ai is rolled out)" or ""), with the row of screens served; while it is asked
 * or where it cannot be read, that instead: no landing is named without the worker's answer.
 */
export function ServedFunnel({
  gets,
  label,
  statement,
}: {
  gets: VisitorGetsState;
  label: string;
  statement: (answer: VisitorGetsAnswer, rolledOut: string) => ReactNode;
}) {
  if (gets.kind === 'asking') return <p className="muted">Reading what its visitors get…</p>;
  if (gets.kind === 'failed')
    return <p className="muted">What its visitors get could not be read: {gets.message}</p>;
  const { answer } = gets;
  const rolledOut = rolledOutText(answer);
  return (
    <>
      <p>{statement(answer, rolledOut ? ` (${rolledOut})` : '')}</p>
      <FlowRow screens={answer.screens.map((screen) => screen.ref)} label={label} />
    </>
  );
}
