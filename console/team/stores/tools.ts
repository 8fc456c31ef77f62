import type { ChangeSet } from '../../../shared/console-api/draft';
import type { ConsoleToken, TokenScope } from '../../../shared/console-api/tokens';
import { atom } from '../../kit/stores/atom';
import { type Loaded, loadedFrom, refusalText } from '../../kit/stores/loaded';
import { takeChangeSet } from '../../kit/stores/shared-draft';
import { fetchChangeSets, fetchTokens, postRevoke, postToken } from '../tools-api';

/**
 * The tokens people made and the change sets their tools prepared, as the worker last answered,
 * read with the console and again after each change here.
 */
export const $tools = atom<Loaded<{ tokens: ConsoleToken[]; changeSets: ChangeSet[] }>>({
  kind: 'loading',
});

/**
 * What the last action here did, read out where it was pressed: a new token's secret (shown this
 * once), a refusal, or a change set taken. Null before any.
 */
export const $toolsOutcome = atom<
  | { kind: 'made'; name: string; secret: string }
  | { kind: 'taken'; owner: string }
  | { kind: 'failed'; text: string }
  | null
>(null);

export async function loadTools(): Promise<void> {
  const [tokens, changeSets] = await Promise.all([fetchTokens(), fetchChangeSets()]);
  if (!tokens.ok) {
    $tools.set(loadedFrom(tokens, () => ({ tokens: [], changeSets: [] })));
    return;
  }
  $tools.set(
    loadedFrom(changeSets, (value) => ({
      tokens: tokens.value.tokens,
      changeSets: value.changeSets,
    })),
  );
}

export async function makeToken(name: string, scopes: TokenScope[]): Promise<void> {
  const answer = await postToken({ name, scopes });
  if (!answer.ok) {
    $toolsOutcome.set({ kind: 'failed', text: refusalText(answer.refusal) });
    return;
  }
  $toolsOutcome.set({ kind: 'made', name, secret: answer.value.secret });
  await loadTools();
}

export async function revokeToken(name: string): Promise<void> {
  const answer = await postRevoke({ name });
  $toolsOutcome.set(answer.ok ? null : { kind: 'failed', text: refusalText(answer.refusal) });
  await loadTools();
}

/** A token's change set into the team's draft: the draft's edits then show it, to review. */
export async function takeIntoDraft(owner: string): Promise<void> {
  const refusal = await takeChangeSet(owner);
  $toolsOutcome.set(
    refusal === null ? { kind: 'taken', owner } : { kind: 'failed', text: refusal },
  );
}
