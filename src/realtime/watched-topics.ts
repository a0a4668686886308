/**
 * D1's list of the topics of no one user that have a subscriber somewhere (migrations/0013): what a
 * background consumer reads to skip the changes nobody would receive, without a call to each
 * topic's hub.
 */

/** Lists or unlists each topic as it is now: [topic, has a subscriber]. */
export async function recordWatchedTopics(db: D1Database, states: [string, boolean][]): Promise<void> {
  if (states.length === 0) return;
  await db.batch(
    states.map(([topic, watched]) =>
      watched
        ? db.prepare("INSERT INTO watched_topics (topic) VALUES (?) ON CONFLICT (topic) DO NOTHING").bind(topic)
        : db.prepare("DELETE FROM watched_topics WHERE topic = ?").bind(topic),
    ),
  );
}

/** Which of these topics are listed as having a subscriber. */
export async function watchedTopics(db: D1Database, topics: string[]): Promise<Set<string>> {
  if (topics.length === 0) return new Set();
  const rows = await db
    .prepare("SELECT topic FROM watched_topics WHERE topic IN (SELECT value FROM json_each(?))")
    .bind(JSON.stringify(topics))
    .all<{ topic: string }>();
  return new Set(rows.results.map((r) => r.topic));
}
