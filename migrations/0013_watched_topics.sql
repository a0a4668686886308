-- The topics of no one user (a leaderboard's) that have a subscriber in some broker shard, written
-- by each topic's hub (src/realtime/topic-hub-do.ts) before the subscriber's SUBACK. The leaderboard
-- consumer ranks members, and builds changes, only for boards somebody receives: a subscriber of
-- the board's topic, or an endpoint of the app for leaderboard webhooks (src/fanout/audience.ts).
-- Expand-only: a new table. A topic listed without a subscriber (a failed delete) costs work, never
-- a message; it comes off at the next publish to it.
CREATE TABLE watched_topics (topic TEXT PRIMARY KEY) WITHOUT ROWID;
