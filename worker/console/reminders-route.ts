import { Hono } from 'hono';
import { SCHEDULED_REMINDERS_SHOWN } from '../../shared/console-api/reminders';
import { readScheduledReminders } from '../lifecycle/scheduled-reminders';
import type { ConsoleEnv } from '../request/envs';

/**
 * GET /console/api/reminders (CONSOLE_REMINDERS_PATH), mounted in the console's app behind its
 * Access check and its `Cache-Control: no-store`, as every console read: the renewal reminders
 * the cron will ask the product API for, soonest first, with their totals
 * (ScheduledRemindersAnswer). A failing ledger shard is named in the answer, not a failed call
 * (worker/lifecycle/scheduled-reminders.ts); an operator's read, costing no visitor anything.
 */
export function remindersRoutes(options: { now: () => number }) {
  const routes = new Hono<ConsoleEnv>();
  routes.get('/', async (c) =>
    c.json(
      await readScheduledReminders(
        c.env.SUBSCRIPTION_LEDGER,
        options.now(),
        SCHEDULED_REMINDERS_SHOWN,
      ),
    ),
  );
  return routes;
}
