import type { ExperimentDocument } from '../../shared/config/experiments';
import type { ExperimentStatus } from '../../shared/experiments';
import { rampBadge, rampLine } from '../kit/ramp-line';

/**
 * Where an experiment stands for visitors, told apart from what the unpublished draft does to it:
 * the experiments list groups its cards by what is live, and each card says what publishing the
 * draft would change. Pure, so the page and its tests agree.
 */

/** The list's groups, in the order they are shown. */
export const STANDING_GROUPS = ['running', 'paused', 'not_started', 'ended'] as const;
export type StandingGroup = (typeof STANDING_GROUPS)[number];

export const GROUP_TEXTS: Record<StandingGroup, { title: string; about: string }> = {
  running: {
    title: 'Running now',
    about: 'Live: new visitors who match enter them.',
  },
  paused: {
    title: 'Paused',
    about: 'Live but paused: no new visitor enters; those exposed keep their variant.',
  },
  not_started: {
    title: 'Not started',
    about: 'Drafts: no visitor sees them until they are started and published.',
  },
  ended: {
    title: 'Ended',
    about: 'Stopped, shipped or archived: no new visitor enters them.',
  },
};

/** What a status is for visitors, as a card's badge says it. */
const LIVE_WORDS: Record<ExperimentStatus, string> = {
  draft: 'not started',
  running: 'running',
  paused: 'paused',
  stopped: 'stopped',
  shipped: 'shipped',
  archived: 'archived',
};

const GROUP_OF: Record<ExperimentStatus, StandingGroup> = {
  draft: 'not_started',
  running: 'running',
  paused: 'paused',
  stopped: 'ended',
  shipped: 'ended',
  archived: 'ended',
};

/** What the draft's status does once published, from the live one: "starts", "pauses". */
function moveVerb(from: ExperimentStatus, to: ExperimentStatus): string {
  switch (to) {
    case 'running':
      return from === 'paused' ? 'resumes' : 'starts';
    case 'paused':
      return 'pauses';
    case 'stopped':
      return 'stops';
    case 'shipped':
      return 'ends';
    case 'archived':
      return 'archives';
    case 'draft':
      return 'makes a draft of';
  }
}

export interface Standing {
  /** The list's group: by what visitors get now, the published config. */
  group: StandingGroup;
  /** The live status (draft when it is not published at all), for the badge's colour. */
  status: ExperimentStatus;
  /** The badge: "running", "not started". */
  badge: string;
  /** What publishing the draft changes for it, or null when the draft is what is live. */
  pending: string | null;
  /** Its live guarded ramp in a sentence (../kit/ramp-line.ts); null without one. */
  ramp: string | null;
}

/**
 * An experiment of the draft against the published one of the same id (undefined when it was
 * never published).
 */
export function experimentStanding(
  draft: ExperimentDocument,
  live: ExperimentDocument | undefined,
): Standing {
  const status = live?.status ?? 'draft';
  const ramp = live?.ramp;
  const standing = {
    group: GROUP_OF[status],
    status,
    // A ramp held or rolled back says so where "running" would mislead.
    badge: (status === 'running' ? rampBadge(ramp) : null) ?? LIVE_WORDS[status],
    ramp: ramp === undefined ? null : rampLine(ramp, 'variant', live?.startedAt),
  };
  if (!live) {
    return {
      ...standing,
      pending:
        draft.status === 'draft'
          ? 'New in your draft: not published yet.'
          : `New in your draft, which ${moveVerb('draft', draft.status)} it when you publish; until then no visitor sees it.`,
    };
  }
  if (draft.status !== live.status) {
    return {
      ...standing,
      pending: `Your draft ${moveVerb(live.status, draft.status)} it when you publish; until then it is ${LIVE_WORDS[live.status]}.`,
    };
  }
  if (JSON.stringify(draft) !== JSON.stringify(live)) {
    return {
      ...standing,
      pending: 'Changed in your draft: visitors get the published version until you publish.',
    };
  }
  return { ...standing, pending: null };
}
