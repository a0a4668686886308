/**
 * The newest file in migrations/ when this code was built: the status warns while D1 is behind
 * it. A unit test keeps it equal to the newest file.
 */
export const EXPECTED_D1_MIGRATION = "0018_streaks.sql";
