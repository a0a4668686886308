/**
 * An object's SQLite tables, versioned per area: each area owns an ordered list of migrations and
 * only appends to it. `schema_versions` holds one row per area whose tables exist.
 */
export interface AreaTables {
  area: string;
  /** Appended to, never changed: each brings an older object's tables one version on. */
  migrations: string[];
  /**
   * The area's tables at their last version, made at once where the area has none: what the
   * migrations give, less the tables a migration handed to an area of their own (the same tables,
   * columns and indexes across a whole object; test/integration/user/object-tables.test.ts compares
   * them), in the cheapest form for this runtime. A table keyed by text is WITHOUT ROWID
   * (one b-tree, not a table and its key's index), and no AUTOINCREMENT where the ids only order
   * rows (no sqlite_sequence to make, nor to write at each insert). Without it the migrations run.
   */
  created?: string;
}

/** What an area needs of the object's SQLite storage. */
export type AreaSql = Pick<SqlStorage, "exec">;

const UPSERT_VERSION =
  "INSERT INTO schema_versions (area, version) VALUES (?, ?) ON CONFLICT (area) DO UPDATE SET version = excluded.version";
/** Begins a statement that only reads: anything else may write and so needs the area's tables. */
const READ_ONLY = /^\s*SELECT\b/i;

/**
 * The areas' tables of one object. Areas whose tables exist are migrated to their last version
 * when the object starts; the others get theirs at their first write (`sqlFor`), so that a new
 * player's object holds only the tables the player uses. Every table or index costs CPU to create
 * and a SQLite page to keep, and most players never use some areas (battle passes, erasure, paced
 * boards, topic watchers).
 */
export class ObjectTables {
  /** Version of each area whose tables exist. */
  private versions = new Map<string, number>();

  constructor(
    private readonly sql: SqlStorage,
    private readonly areas: AreaTables[],
  ) {
    // WITHOUT ROWID: one b-tree instead of a table and its key's index. Objects that have the older
    // rowid table keep it; both read and write alike.
    sql.exec(
      "CREATE TABLE IF NOT EXISTS schema_versions (area TEXT PRIMARY KEY, version INTEGER NOT NULL) WITHOUT ROWID",
    );
    this.reload();
    for (const area of areas) if (this.versions.has(area.area)) this.migrate(area);
  }

  /**
   * Reads again which areas have tables: after a transaction that failed, since the tables it
   * created were rolled back with it.
   */
  reload(): void {
    // One read for all areas: an object starts each time it comes back after being evicted.
    const rows = this.sql
      .exec<{ area: string; version: number }>("SELECT area, version FROM schema_versions")
      .toArray();
    this.versions = new Map(rows.map((r) => [r.area, r.version]));
  }

  /** Creates (or migrates) every area's tables now. */
  migrateAll(): void {
    for (const area of this.areas) this.migrate(area);
  }

  /**
   * The area's view of the storage: before the area's tables exist, a read answers no rows and
   * the first statement that may write creates them, inside the caller's transaction if any.
   * No rows also for an aggregate: read a minimum as `ORDER BY … LIMIT 1`, not with `one()`.
   */
  sqlFor(area: AreaTables): AreaSql {
    const sql = this.sql;
    return {
      exec: <T extends Record<string, SqlStorageValue>>(query: string, ...bindings: unknown[]): SqlStorageCursor<T> => {
        if (!this.versions.has(area.area)) {
          if (READ_ONLY.test(query)) return sql.exec<T>("SELECT 1 WHERE 0");
          this.migrate(area);
        }
        return sql.exec<T>(query, ...bindings);
      },
    };
  }

  private migrate({ area, migrations, created }: AreaTables): void {
    const from = this.versions.get(area) ?? 0;
    if (from >= migrations.length) return;
    if (from === 0 && created !== undefined) this.sql.exec(created);
    else for (const migration of migrations.slice(from)) this.sql.exec(migration);
    // One version row per area, not per migration: a new area runs every migration at once.
    this.sql.exec(UPSERT_VERSION, area, migrations.length);
    // Read again, not set: an area's tables may include another area's, which it registers
    // (src/events/event-tables.ts).
    this.reload();
  }
}

/** Creates or migrates every area's tables when the object starts (objects with a table or two). */
export function migrateObjectStorage(sql: SqlStorage, areas: AreaTables[]): void {
  new ObjectTables(sql, areas).migrateAll();
}
