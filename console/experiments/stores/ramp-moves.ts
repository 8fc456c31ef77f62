import type { PublishAnswer } from '../../../shared/console-api/config';
import {
  type RampMoveRequest,
  type RampStatusAnswer,
  rampMovePath,
} from '../../../shared/console-api/ramp-status';
import { consoleCall as call, type Refusal } from '../../kit/api';
import { refusalText } from '../../kit/stores/loaded';
import { loadConsole } from '../../kit/stores/publishing';
import { flushSave } from '../../kit/stores/shared-draft';

/**
 * Holding, resuming and rolling back a live ramp (docs/experiments.md, "Guarded ramps";
 * docs/routes.md, "A new route on a ramp"), an experiment's from its results, a route's from its
 * card: published at once by the worker as a version (worker/console/ramp-move-route.ts), as
 * the CLI's `ramp` commands are, naming the ramp's state the page showed so a ramp moved since
 * is refused rather than undone.
 */

const DONE: Record<RampMoveRequest['move'], string> = {
  hold: 'Held the ramp of',
  resume: 'Resumed the ramp of',
  rollback: 'Rolled back the ramp of',
};

/**
 * Asks the worker to make `move` on the ramp of `id` (an experiment's id, or a route's results id
 * `route:<id>`), as `ramp` showed it. Done, the console loads what is live again and the answer
 * says what was published, for the caller's status line; the text of why not otherwise.
 */
export async function moveRamp(
  id: string,
  name: string,
  ramp: Pick<RampStatusAnswer, 'status' | 'since'>,
  move: RampMoveRequest['move'],
  reason: string,
  breakGlass = false,
): Promise<{ ok: true; done: string } | { ok: false; message: string }> {
  // The team's draft is saved first: loading the live config again must not lose an edit.
  await flushSave();
  const request: RampMoveRequest = {
    move,
    reason,
    seen: { status: ramp.status, since: ramp.since },
    ...(breakGlass ? { breakGlass } : {}),
  };
  const answer = await call<PublishAnswer>(rampMovePath(id), request);
  if (!answer.ok) return { ok: false, message: refusedText(answer.refusal) };
  await loadConsole();
  return { ok: true, done: `${DONE[move]} ${name}: published ${answer.value.version.id}.` };
}

/** Why the worker did not make the move, for the dialog. */
function refusedText(refusal: Refusal): string {
  if (refusal.kind === 'invalid')
    return `The config's check refused it; nothing was published: ${refusal.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`;
  if (refusal.kind === 'conflict')
    return `Someone published ${refusal.head.id} at the same moment; nothing was changed. Try again.`;
  return refusalText(refusal);
}
