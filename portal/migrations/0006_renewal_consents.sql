-- The visitor's agreement to the automatic renewal a charge was asked with, where their country
-- asks for one (shared/plans/renewal-consent.ts): the consent wording's version, its language and
-- when the funnel's worker saw it. One row per subscription, written with the charge.
CREATE TABLE renewal_consents (
  subscription_id TEXT PRIMARY KEY REFERENCES subscriptions(id),
  text_version TEXT NOT NULL,
  language TEXT NOT NULL,
  accepted_at TEXT NOT NULL
);
