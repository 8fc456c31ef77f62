import type { Answer, Refusal } from '../api';
import { failureText } from '../error-texts';

/** What the console loads from the worker: on its way, there, or the failure to say instead. */
export type Loaded<Ready> =
  | { kind: 'loading' }
  | ({ kind: 'ready' } & Ready)
  | { kind: 'failed'; message: string };

/** What to say of a refused call; a document refused or a conflict is not one a load expects. */
export function refusalText(refusal: Refusal<unknown>): string {
  return failureText(refusal.kind === 'failed' ? refusal.failure : 'unreadable');
}

/** A call's answer as a load: ready with what `ready` takes of its value, else failed with why. */
export function loadedFrom<T, Ready>(
  answer: Answer<T, unknown>,
  ready: (value: T) => Ready,
): Loaded<Ready> {
  return answer.ok
    ? { kind: 'ready', ...ready(answer.value) }
    : { kind: 'failed', message: refusalText(answer.refusal) };
}
