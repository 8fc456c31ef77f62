import { approvalIsRequired } from '../config/approval';
import { draftStore } from '../config/draft-store';
import type { BrokenGlass, PublishGate } from '../config/gate';
import { kvLiveKeys, type PublishStores } from '../config/publish';
import { d1Runner, type SqlRunner, versionStore } from '../config/versions';
import type { Bindings } from '../env';
import { isDevelopment } from '../environment';
import { alertMessage } from './alert-message';
import { alertKey, type DueAlert } from './alert-rules';
import { claimAlert } from './alert-store';

/**
 * The publishing gate (worker/config/gate.ts) as a worker and the command line hold it: its
 * setting, the shared draft's reviews in CONFIG_DB, and a break-glass announced as an alert,
 * claimed in CONFIG_DB beside the experiments' alerts and posted by the same run (signed,
 * retried, once per version).
 */

/** Claims the alert of a break-glass publish, in `sql` (CONFIG_DB), for the alerts' run. */
function breakGlassAnnouncer(sql: SqlRunner): PublishGate['announce'] {
  return async (glass: BrokenGlass, webhook: string, now: Date) => {
    const subject = `publishing-${glass.history}`;
    const alert: DueAlert = {
      key: alertKey(subject, 0, 'break_glass', glass.version),
      experiment: subject,
      name: 'Publishing',
      phase: 0,
      facts: { kind: 'break_glass', ...glass },
    };
    const body = JSON.stringify(alertMessage(alert, null));
    await claimAlert(sql, alert, webhook, body, now.getTime());
  };
}

/** The gate over `sql` (CONFIG_DB): `required` where PUBLISH_APPROVAL is `required`. */
export function publishGate(sql: SqlRunner, required: boolean, development: boolean): PublishGate {
  return {
    required,
    newestDraft: () => draftStore(sql).newest(),
    announce: breakGlassAnnouncer(sql),
    development,
  };
}

/** A worker's gate: its PUBLISH_APPROVAL, its CONFIG_DB. */
export function gateOf(env: Bindings): PublishGate {
  return publishGate(
    d1Runner(env.CONFIG_DB),
    approvalIsRequired(env.PUBLISH_APPROVAL),
    isDevelopment(env),
  );
}

/**
 * What a worker publishes the config through: CONFIG_DB's history, KV, and the gate. Every store
 * a console call or the cron publishes through is this, so none publishes around the gate.
 */
export function publishStoresOf(env: Bindings): PublishStores {
  return {
    versions: versionStore(d1Runner(env.CONFIG_DB)),
    live: kvLiveKeys(env.FUNNEL_CONFIG),
    rules: { development: isDevelopment(env) },
    gate: gateOf(env),
  };
}
