/**
 * What the roll back's confirm step says besides its question. A roll back is a publish like any
 * other (worker/config/publish.ts): where the old version draws the split's or an experiment's
 * variants at other shares than the live one, it starts a new phase
 * (worker/experiments/config/phases.ts), and that experiment's results count afresh from it. The
 * history lists no documents, so the console cannot tell beforehand whether it will; it says when
 * it does.
 */
export function rollbackNotice(hasEdits: boolean): string {
  const phase =
    'If its shares of the variants differ from the live ones, for the split or for an experiment, this starts a new phase: those results count afresh from it, and the current phase’s stay under its number.';
  return hasEdits ? `${phase} Your edits that are not published are discarded.` : phase;
}
