import {
  CONSOLE_REMINDERS_PATH,
  type ScheduledRemindersAnswer,
} from '../../shared/console-api/reminders';
import { consoleCall } from '../kit/api';

/**
 * The Reminders area's one call, GET `/console/api/reminders` (shared/console-api/reminders.ts),
 * answered as every console call is (console/kit/api.ts).
 */
export const fetchScheduledReminders = () =>
  consoleCall<ScheduledRemindersAnswer>(CONSOLE_REMINDERS_PATH);
