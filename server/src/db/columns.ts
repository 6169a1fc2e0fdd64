import type { CreateTableBuilder } from 'kysely';
import type { Dialect } from './connection.js';

/** An auto-increment integer primary key in either dialect. */
export function withIdColumn<T extends string>(
  table: CreateTableBuilder<T, never>,
  dialect: Dialect,
): CreateTableBuilder<T, 'id'> {
  return dialect === 'postgres'
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** Epoch-millisecond timestamps need 64 bits in PostgreSQL; SQLite integers already are. */
export const epochMs = 'bigint' as const;
