import type { AreaSchema } from "../user/schema";

/** The broker object's SQLite schema, versioned the way the user object's is (src/user/schema.ts). */
export const brokerSchema: AreaSchema = {
  area: "broker",
  // IF NOT EXISTS: brokers from before the schema was versioned already have the table.
  migrations: [
    "CREATE TABLE IF NOT EXISTS pending_bytes (conn_id TEXT PRIMARY KEY, bytes BLOB NOT NULL)",
    // Users' objects whose topics are refused: banned players. `until`: service time (ms), NULL until lifted.
    "CREATE TABLE barred_owners (owner TEXT PRIMARY KEY, until INTEGER)",
  ],
};
