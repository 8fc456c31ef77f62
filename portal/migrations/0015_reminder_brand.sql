-- The brand a reminder's subscription was bought in (shared/api/reminders.ts `brand`): the email
-- the product API sends wears it. NULL on reminders asked before the worker named it.
ALTER TABLE reminder_requests ADD COLUMN brand TEXT;
