import { answerName } from '../../../shared/quiz/answers';

import type { Statement } from './split-statements';
import { COUNTED_STEPS } from './strata-statements';

/**
 * Every experiment's counts by a quiz answer (the shards only), for the results' segments by an
 * answer (worker/experiments/results/segment-results.ts; docs/statistics.md, "Segments by a quiz
 * answer"). The answers are the worker's own sightings (worker/collector/seen-steps.ts): a choice
 * the worker kept for a visitor exposed to an experiment, never a page's event.
 *
 * - `xp_answers`: an exposed visitor's choice per question key, when first and last answered;
 *   kept ANSWERS_KEPT_MS after the last answer, a few rows per quiz visitor.
 * - `xp_answer_segments`: per experiment, phase, key, choice and arm, the exposed and each step
 *   reached after exposure, apart by whether the answer came after the exposure (an arm's answers
 *   given after it are what the arm did to the visitor, not who the visitor was: the results
 *   compare the arms only in answers given before).
 *
 * Triggers keep the counts with the rows in one transaction, so the results read a few rows per
 * choice and arm, never the visitors': an answer counts in each experiment its visitor is exposed
 * to, whichever comes first; a changed answer moves its visitor to the new choice; a step moves
 * the counts of the visitor's answers. No trigger fires on a delete: once an answer is past its
 * days, its visitor's later steps count in the arm's totals only (the results' "unanswered").
 */

/** How long an answer is kept after it was last given, for the visitor's steps to find. */
export const ANSWERS_KEPT_MS = 35 * 24 * 60 * 60 * 1000;

/** The counts' key, in the table's order. */
const KEY = 'experiment, phase, key, value, variant, after_exposure';

/** An exposure `e` and an answer `a` (row aliases) of one visitor, as the key of their counts. */
const pairKey = (a: string, e: string) =>
  `${e}.experiment, ${e}.phase, ${a}.key, ${a}.value, ${e}.variant, ${a}.answered_at > ${e}.exposed_at`;

/** Each pair of `from`'s rows added to its counts: one exposed, and the exposure's steps. */
function pairsAdded(a: string, e: string, from: string): string {
  return `INSERT INTO xp_answer_segments (${KEY}, exposed, ${COUNTED_STEPS.join(', ')})
    SELECT ${pairKey(a, e)}, 1, ${COUNTED_STEPS.map((step) => `${e}.${step}`).join(', ')}
    FROM ${from}
    ON CONFLICT (${KEY}) DO UPDATE SET exposed = xp_answer_segments.exposed + 1,
${COUNTED_STEPS.map((step) => `      ${step} = xp_answer_segments.${step} + excluded.${step}`).join(',\n')};`;
}

export const ANSWERS_MIGRATION: readonly string[] = [
  `CREATE TABLE xp_answers (
  visitor_id TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  answered_at INTEGER NOT NULL,
  changed_at INTEGER NOT NULL,
  PRIMARY KEY (visitor_id, key)
) WITHOUT ROWID`,
  `CREATE TABLE xp_answer_segments (
  experiment TEXT NOT NULL,
  phase INTEGER NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  variant TEXT NOT NULL,
  after_exposure INTEGER NOT NULL,
  exposed INTEGER NOT NULL DEFAULT 0,
${COUNTED_STEPS.map((step) => `  ${step} INTEGER NOT NULL DEFAULT 0,`).join('\n')}
  PRIMARY KEY (${KEY})
) WITHOUT ROWID`,
  `CREATE TRIGGER xp_answer_given AFTER INSERT ON xp_answers
BEGIN
  ${pairsAdded('NEW', 'e', 'xp_exposures AS e WHERE e.visitor_id = NEW.visitor_id')}
END`,
  `CREATE TRIGGER xp_answer_changed AFTER UPDATE OF value, answered_at ON xp_answers
WHEN OLD.value <> NEW.value OR OLD.answered_at <> NEW.answered_at
BEGIN
  UPDATE xp_answer_segments SET exposed = xp_answer_segments.exposed - 1,
${COUNTED_STEPS.map((step) => `    ${step} = xp_answer_segments.${step} - e.${step}`).join(',\n')}
  FROM xp_exposures AS e
  WHERE e.visitor_id = OLD.visitor_id AND (${KEY.replaceAll(/(\w+)/g, 'xp_answer_segments.$1')}) = (${pairKey('OLD', 'e')});
  ${pairsAdded('NEW', 'e', 'xp_exposures AS e WHERE e.visitor_id = NEW.visitor_id')}
END`,
  `CREATE TRIGGER xp_answer_exposed AFTER INSERT ON xp_exposures
BEGIN
  ${pairsAdded('a', 'NEW', 'xp_answers AS a WHERE a.visitor_id = NEW.visitor_id')}
END`,
  `CREATE TRIGGER xp_answer_stepped AFTER UPDATE OF ${COUNTED_STEPS.join(', ')} ON xp_exposures
BEGIN
  UPDATE xp_answer_segments SET
${COUNTED_STEPS.map((step) => `    ${step} = xp_answer_segments.${step} + NEW.${step} - OLD.${step}`).join(',\n')}
  FROM xp_answers AS a
  WHERE a.visitor_id = NEW.visitor_id AND (${KEY.replaceAll(/(\w+)/g, 'xp_answer_segments.$1')}) = (${pairKey('a', 'NEW')});
END`,
];

/** A choice the worker kept for a visitor (worker/collector/seen-steps.ts), when (epoch ms). */
export interface GivenAnswer {
  visitorId: string;
  key: string;
  value: string;
  at: number;
}

/**
 * One statement per answer, oldest first: kept for a visitor this shard holds an exposure of,
 * counted or pending (a page's exposure counts once its script confirms it, a moment later), and
 * nothing for anyone else, so ids that never saw a tested page leave no row. The latest answer
 * of a key wins, whatever order the queue delivers them in; the first time it was answered
 * stays, as the time the visitor told it. A message delivered again changes nothing.
 */
export function answerStatements(answers: readonly GivenAnswer[]): Statement[] {
  return [...answers]
    .sort((a, b) => a.at - b.at)
    .map(({ visitorId, key, value, at }) => ({
      sql: `INSERT INTO xp_answers (visitor_id, key, value, answered_at, changed_at)
        SELECT ?1, ?2, ?3, ?4, ?4
        WHERE EXISTS (SELECT 1 FROM xp_exposures WHERE visitor_id = ?1)
          OR EXISTS (SELECT 1 FROM xp_pending_exposures WHERE visitor_id = ?1)
        ON CONFLICT (visitor_id, key) DO UPDATE SET
          value = CASE WHEN excluded.changed_at >= changed_at THEN excluded.value ELSE value END,
          answered_at = min(answered_at, excluded.answered_at),
          changed_at = max(changed_at, excluded.changed_at)`,
      params: [visitorId, key, value, at],
    }));
}

/** The answers last given before `before` (epoch ms), `chunk` at a time: their counts stay. */
export function answersPruneStatement(before: number, chunk: number): Statement {
  return {
    sql: `DELETE FROM xp_answers WHERE (visitor_id, key) IN
      (SELECT visitor_id, key FROM xp_answers WHERE changed_at < ?1 LIMIT ${chunk})`,
    params: [before],
  };
}

/**
 * The phase's counts by one key's choices as segment rows (dimension `answer:<key>`), the
 * exposed who answered after their exposure apart (`answered_after`).
 */
export function answerSegmentRowsStatement(
  experiment: string,
  phase: number,
  key: string,
): Statement {
  return {
    sql: `SELECT variant, ?4 AS dimension, value AS level, sum(exposed) AS exposed,
                 ${COUNTED_STEPS.map((step) => `sum(${step}) AS ${step}`).join(', ')},
                 0 AS declined, 0 AS refunded,
                 sum(CASE WHEN after_exposure THEN exposed ELSE 0 END) AS answered_after
          FROM xp_answer_segments WHERE experiment = ?1 AND phase = ?2 AND key = ?3
          GROUP BY value, variant ORDER BY value, variant`,
    params: [experiment, phase, key, answerName(key)],
  };
}
