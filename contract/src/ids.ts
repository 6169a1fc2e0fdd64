/** Database ids and integer ranges, validated the same way on every entry point and dialect. */

/** Largest value of a PostgreSQL `integer` column (ids, counters): validated before any query. */
export const DB_INT_MAX = 2_147_483_647;

/** A whole number a PostgreSQL `integer` column holds as an id or amount: 1..DB_INT_MAX. */
export const isDbId = (n: number): boolean => Number.isSafeInteger(n) && n >= 1 && n <= DB_INT_MAX;
