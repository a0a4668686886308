import type { AreaTables } from "../shared/object-tables";

/** The broker object's SQLite tables, versioned the way the user object's is (src/shared/object-tables.ts). */
export const brokerTables: AreaTables = {
  area: "broker",
  // IF NOT EXISTS: brokers from before the tables were versioned already have the table.
  migrations: [
    "CREATE TABLE IF NOT EXISTS pending_bytes (conn_id TEXT PRIMARY KEY, bytes BLOB NOT NULL)",
    // Users' objects whose topics are refused: banned players. `until`: service time (ms), NULL until lifted.
    "CREATE TABLE barred_owners (owner TEXT PRIMARY KEY, until INTEGER)",
  ],
};
