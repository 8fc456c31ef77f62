import { Hono } from 'hono';
import { type ReminderAnswer, ReminderRequest } from '../../shared/api/reminders';
import type { PortalBindings } from '../env';
import { validJsonBody } from '../json-body';
import { PortalError } from '../portal-error';
import { findSubscription } from '../store/subscriptions';

/**
 * POST /subscriptions/{id}/reminders (shared/api/reminders.ts): the worker asks for a renewal
 * reminder. The emulator sends no email: it keeps what it was asked (`reminder_requests`), once
 * per reminder id, and answers `duplicate` to the same id again, as the product API must. An
 * unknown subscription is 404, which the worker reads as "nothing more to remind".
 */
export const reminderRoutes = new Hono<{ Bindings: PortalBindings }>().post(
  '/subscriptions/:id/reminders',
  async (c) => {
    const body = await validJsonBody(c, ReminderRequest);
    const id = c.req.param('id');
    if (body.subscription_id !== id) {
      throw new PortalError(400, 'invalid_body', 'subscription_id differs from the path');
    }
    if ((await findSubscription(c.env.PORTAL_DB, id)) === null) {
      throw new PortalError(404, 'not_found', 'No such subscription.');
    }
    const inserted = await c.env.PORTAL_DB.prepare(
      `INSERT OR IGNORE INTO reminder_requests
         (reminder_id, subscription_id, kind, price, currency, renews_at, manage_url, language,
          brand, country, asked_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
      .bind(
        body.reminder_id,
        id,
        body.kind,
        body.price,
        body.currency,
        body.renews_at,
        body.manage_url,
        body.language,
        body.brand ?? null,
        body.country,
        new Date().toISOString(),
      )
      .run();
    const answer: ReminderAnswer =
      inserted.meta.changes > 0 ? { asked: true } : { duplicate: true };
    return c.json(answer, 200);
  },
);
