-- Raw events leave D1: the background consumer archives them in R2 (src/events/archive/), and D1
-- keeps only what the service answers from: event counts per app, UTC hour and event name, and
-- receipts of the queue messages already counted.

-- Bounded by retention × the event names an app uses per hour (never more than one row per event).
-- `hour` is the start (ms since epoch) of the UTC hour the events were received in.
CREATE TABLE event_counts (
  app_id INTEGER NOT NULL REFERENCES apps (app_id) ON DELETE CASCADE,
  hour INTEGER NOT NULL,
  event_name TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (app_id, hour, event_name)
) WITHOUT ROWID;
-- Retention drops old hours across apps.
CREATE INDEX event_counts_by_hour ON event_counts (hour);

-- Queue messages of kind "event" already counted, so that a replayed message counts once, filed
-- under the 2-hour period they were counted in (`period`: its first hour, counted from the epoch).
-- They expire after 6 hours by whole periods, as a range of the primary key, and cost one row
-- write each (src/events/analytics-store.ts).
CREATE TABLE event_receipts (
  period INTEGER NOT NULL,
  message_id TEXT NOT NULL,
  PRIMARY KEY (period, message_id)
) WITHOUT ROWID;

-- The events kept so far become counts; their raw rows are not carried over.
INSERT INTO event_counts (app_id, hour, event_name, count)
SELECT app_id, received_at - received_at % 3600000, event_name, COUNT(*)
FROM analytics_events
GROUP BY 1, 2, 3;

-- A message counted lately must not count again if the queue redelivers it (receipts of older
-- ones would expire at once).
INSERT INTO event_receipts (period, message_id)
SELECT received_at / 7200000 * 2, id FROM analytics_events
WHERE received_at >= (CAST(strftime('%s', 'now') AS INTEGER) - 6 * 3600) * 1000;

DROP TABLE analytics_events;

-- For the minutes in which the Worker that wrote analytics_events still runs next to this schema
-- (migrations are applied before the new Worker is deployed): its replay check reads the
-- receipts, and its inserts become receipts and counts instead of rows. Nothing reads this view
-- once the new Worker is deployed; a later migration can drop it with its trigger.
CREATE VIEW analytics_events AS
SELECT message_id AS id, NULL AS app_id, NULL AS user_id, NULL AS team_id, NULL AS event_name, NULL AS event_type,
  NULL AS session_id, NULL AS meta_data, NULL AS event_id, period * 3600000 AS received_at
FROM event_receipts
WHERE period IN (SELECT CAST(strftime('%s', 'now') AS INTEGER) / 7200 * 2 - value FROM json_each('[0,2,4,6]'));

CREATE TRIGGER analytics_events_insert INSTEAD OF INSERT ON analytics_events
WHEN NOT EXISTS (SELECT 1 FROM analytics_events WHERE id = NEW.id)
BEGIN
  INSERT INTO event_receipts (period, message_id) VALUES (CAST(strftime('%s', 'now') AS INTEGER) / 7200 * 2, NEW.id);
  INSERT INTO event_counts (app_id, hour, event_name, count)
  VALUES (NEW.app_id, NEW.received_at - NEW.received_at % 3600000, NEW.event_name, 1)
  ON CONFLICT (app_id, hour, event_name) DO UPDATE SET count = count + 1;
END;
