/**
 * The user object's SQLite schema, versioned per area: each area owns an ordered list of
 * migrations and only appends to it. Applied once when the object starts.
 */
export interface AreaSchema {
  area: string;
  migrations: string[];
}

export function migrateUserStorage(sql: SqlStorage, areas: AreaSchema[]): void {
  sql.exec("CREATE TABLE IF NOT EXISTS schema_versions (area TEXT PRIMARY KEY, version INTEGER NOT NULL)");
  // One read for all areas: an object starts each time it comes back after being evicted.
  const versions = new Map(sql.exec<{ area: string; version: number }>("SELECT area, version FROM schema_versions").toArray().map((r) => [r.area, r.version]));
  for (const { area, migrations } of areas) {
    const from = versions.get(area) ?? 0;
    if (from >= migrations.length) continue;
    for (const migration of migrations.slice(from)) sql.exec(migration);
    // One version row per area, not per migration: a new object runs every migration at once.
    sql.exec(
      "INSERT INTO schema_versions (area, version) VALUES (?, ?) ON CONFLICT (area) DO UPDATE SET version = excluded.version",
      area,
      migrations.length,
    );
  }
}
