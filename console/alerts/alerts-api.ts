import {
  type AcknowledgeAlertAnswer,
  type AcknowledgeAlertRequest,
  type AlertsAnswer,
  CONSOLE_ALERTS_ACKNOWLEDGE_PATH,
  CONSOLE_ALERTS_PATH,
  CONSOLE_GUARDRAILS_CHECK_PATH,
  type GuardrailsCheckAnswer,
} from '../../shared/console-api/alerts';
import { consoleCall } from '../kit/api';

/**
 * The Alerts area's calls (shared/console-api/alerts.ts), answered as every console call is
 * (console/kit/api.ts): the inbox, one alert acknowledged, and the 15-minute check run now.
 */
export const fetchAlerts = () => consoleCall<AlertsAnswer>(CONSOLE_ALERTS_PATH);

export const postAcknowledgement = (request: AcknowledgeAlertRequest) =>
  consoleCall<AcknowledgeAlertAnswer>(CONSOLE_ALERTS_ACKNOWLEDGE_PATH, request);

/** An empty JSON body: the console's writes are JSON only (worker/request/console-guard.ts). */
export const postGuardrailsCheck = () =>
  consoleCall<GuardrailsCheckAnswer>(CONSOLE_GUARDRAILS_CHECK_PATH, {});
