-- A quiz's answers the visitor gave before signing up (shared/api/contract.ts `quiz_answers`,
-- docs/product-api.md "A quiz's answers"): the JSON the sign-up sent, by question key, or NULL
-- when it sent none. Kept with the account, written once, as the app reads it.
ALTER TABLE users ADD COLUMN quiz_answers TEXT;
