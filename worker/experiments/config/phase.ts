import type { PhaseChange } from '../../../shared/console-api/config';

/**
 * What a phase is read from: the variants and their weights. The split (SplitDocument) and each
 * experiment of the experiments section (shared/experiments.ts) both have this shape.
 */
export interface Weighted {
  variants: Record<string, { weight: number }>;
}

/**
 * When a publish starts a new phase of the experiment (ARCHITECTURE.md, "The marketers'
 * console"): when the share of traffic of any variant that is drawn changes, a variant starts or
 * stops being drawn, or the weights otherwise stop meaning what they meant. Visitors assigned
 * under different shares are not comparable (a variant at 10% for a week, then 50%, meets a
 * different mix of days and campaigns than its rival), so results count each phase apart.
 *
 * Weights are read as shares of their total (SPEC.md §4), so 50/50 → 1/1 changes nothing. Edits
 * that leave every share as it was (a flow's screens, a paused variant added, the default
 * variant, a note) keep the phase.
 */
export function phaseChange(
  before: Weighted | null,
  after: Weighted,
  currentPhase: number,
): PhaseChange | null {
  if (before === null) return null;
  const was = shares(before);
  const now = shares(after);
  const reasons: string[] = [];
  const changed: string[] = [];
  for (const [key, share] of now) {
    const old = was.get(key);
    if (old === undefined) reasons.push(`${key} starts being drawn (${percent(share)})`);
    else if (!sameShare(old, share)) changed.push(`${key} ${percent(old)} → ${percent(share)}`);
  }
  for (const key of was.keys()) {
    if (!now.has(key)) {
      const gone = Object.hasOwn(after.variants, key) ? 'is paused' : 'is removed';
      reasons.push(`${key} ${gone}`);
    }
  }
  if (changed.length > 0) reasons.unshift(`the shares change: ${changed.join(', ')}`);
  if (reasons.length === 0) return null;
  return { from: currentPhase, to: currentPhase + 1, reason: reasons.join('; ') };
}

/** Each drawn variant (weight above 0) with its share of the total, 0 to 1. */
function shares(split: Weighted): Map<string, number> {
  const drawn = Object.entries(split.variants).filter(([, variant]) => variant.weight > 0);
  const total = drawn.reduce((sum, [, variant]) => sum + variant.weight, 0);
  return new Map(drawn.map(([key, variant]) => [key, variant.weight / total]));
}

/** Shares computed from different totals (1/3 from 1:2, from 10:20) may differ in the last bit. */
const sameShare = (a: number, b: number) => Math.abs(a - b) < 1e-9;

const percent = (share: number) => `${Math.round(share * 1000) / 10}%`;
