import { sql, type Kysely } from 'kysely';
import { sealedPrefix, secretPlace, type SecretBox } from './secret-box.js';

/** A column holding a secret sealed by a SecretBox, keyed by a text column of its table. */
export interface SealedColumn {
  table: string;
  key: string;
  column: string;
  /** jsonb: a sealed value is a JSON string, one kept before sealing began is the JSON itself. */
  json?: boolean;
}

/** Where a value of the column lives (the sealed value's authenticated data). */
export const placeIn = (column: SealedColumn, key: string) => secretPlace(column.table, column.column, key);

/**
 * Seals the column's values again with the box's active key: `plain` only those kept before sealing
 * began (at start-up), `stale` every one the active key did not seal (a key rotation). Each row is
 * written only if it still holds what was read, so a value changed meanwhile is never overwritten with
 * an older one. How many rows were sealed.
 */
export async function resealColumn<DB>(
  db: Kysely<DB>,
  box: SecretBox,
  column: SealedColumn,
  which: 'plain' | 'stale',
): Promise<number> {
  const table = sql.table(column.table);
  const key = sql.ref(column.key);
  const value = column.json ? sql<string>`${sql.ref(column.column)} #>> '{}'` : sql.ref(column.column);
  // Only the rows to seal are read: at start-up, usually none.
  const done = sealedPrefix(which === 'plain' ? undefined : box.activeKeyId);
  const { rows } = await sql<{ key: string; value: string }>`
    select ${key} as key, ${value} as value from ${table}
    where ${sql.ref(column.column)} is not null and not starts_with(${value}, ${done})`.execute(db);
  let sealed = 0;
  for (const row of rows) {
    const place = placeIn(column, row.key);
    const next = box.seal(box.open(row.value, place), place);
    const written = column.json ? sql`to_jsonb(${next}::text)` : sql`${next}`;
    const result = await sql`
      update ${table} set ${sql.ref(column.column)} = ${written}
      where ${key} = ${row.key} and ${value} = ${row.value}
      returning ${key}`.execute(db);
    sealed += result.rows.length;
  }
  return sealed;
}

/** resealColumn over several columns; the rows sealed in all. */
export async function resealColumns<DB>(
  db: Kysely<DB>,
  box: SecretBox,
  columns: readonly SealedColumn[],
  which: 'plain' | 'stale',
): Promise<number> {
  let sealed = 0;
  for (const column of columns) sealed += await resealColumn(db, box, column, which);
  return sealed;
}
