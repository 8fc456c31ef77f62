-- An ordinary cancellation's day, where the visitor named one on the contract page
-- (shared/api/contract-calls.ts `end_date`, YYYY-MM-DD); NULL: the earliest possible day.
ALTER TABLE contract_requests ADD COLUMN end_date TEXT;
