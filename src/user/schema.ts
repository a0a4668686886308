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
  for (const { area, migrations } of areas) {
    const row = sql.exec<{ version: number }>("SELECT version FROM schema_versions WHERE area = ?", area).toArray()[0];
    for (let v = row?.version ?? 0; v < migrations.length; v++) {
      sql.exec(migrations[v]);
      sql.exec(
        "INSERT INTO schema_versions (area, version) VALUES (?, ?) ON CONFLICT (area) DO UPDATE SET version = excluded.version",
        area,
        v + 1,
      );
    }
  }
}
