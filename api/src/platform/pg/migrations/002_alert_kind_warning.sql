-- Alerts gain the kind `warning`: a warning detected from a source's data opens
-- (api/src/modules/alerts/crossings.ts). Widens the CHECK of 001_user_data.sql; existing rows all pass it.
ALTER TABLE alert_subscriptions DROP CONSTRAINT alert_subscriptions_kind_check;
ALTER TABLE alert_subscriptions
  ADD CONSTRAINT alert_subscriptions_kind_check
  CHECK (kind IN ('below-base', 'incident', 'stale', 'warning'));
