-- One gate for every publish (worker/config/gate.ts): each version says who let it out. The
-- config's versions keep who asked for the review and everyone who edited the draft it published,
-- beside the approver (0007); both histories keep a break-glass publish's reason, the one way out
-- without a second person's approval where PUBLISH_APPROVAL is `required`. NULL on versions from
-- before, and on those that needed none.
ALTER TABLE config_versions ADD COLUMN requester TEXT;
ALTER TABLE config_versions ADD COLUMN editors_json TEXT;
ALTER TABLE config_versions ADD COLUMN break_glass TEXT;
ALTER TABLE copy_versions ADD COLUMN break_glass TEXT;
