import type { ExperimentDocument } from '../../../shared/config/experiments';
import type { DocumentIssue } from '../../../shared/config/parse-document';

/**
 * The decision that ends an experiment (docs/experiments.md): what it found and how it ships.
 * A shipped experiment must say it; a stopped one may, but then whole. Shipping a variant names
 * it, and never the control (rolling out the control changes nothing: that is keep_control).
 * Shipping a variant that the results did not call better, or whose sample ratio alarm was on,
 * takes a written reason, kept with its evidence in the version history.
 */
export function decisionIssues(path: string, experiment: ExperimentDocument): DocumentIssue[] {
  const { decision, control } = experiment;
  if (decision === undefined) {
    return experiment.status === 'shipped'
      ? [
          {
            path: `${path}.decision`,
            message: 'is required to ship: say what the test found and how it ships',
          },
        ]
      : [];
  }
  const issues: DocumentIssue[] = [];
  const at = `${path}.decision`;
  if (decision.action === 'keep_control') {
    if (decision.variant !== undefined && decision.variant !== control)
      issues.push({
        path: `${at}.variant`,
        message: `keep_control ships no variant: take "${decision.variant}" out, or roll it out`,
      });
    return issues;
  }
  if (decision.variant === undefined) {
    issues.push({
      path: `${at}.variant`,
      message: `is required to ${decision.action === 'roll_out' ? 'roll out' : 'make a route default'}: name the variant that ships`,
    });
    return issues;
  }
  if (decision.variant === control) {
    issues.push({
      path: `${at}.variant`,
      message: `"${control}" is the control, which changes nothing: choose keep_control, or the variant that ships`,
    });
    return issues;
  }
  const { verdict, srmAlarm } = decision.evidence;
  if (decision.reason === undefined && (verdict !== 'better' || srmAlarm)) {
    const why = srmAlarm
      ? 'the sample ratio alarm was on'
      : `its verdict was ${verdict === null ? 'none' : `"${verdict}"`}, not "better"`;
    issues.push({
      path: `${at}.reason`,
      message: `is required to ship "${decision.variant}": ${why}; say why it ships anyway`,
    });
  }
  return issues;
}
