/** Adds a column to a table made before it existed (CREATE TABLE IF NOT EXISTS leaves an old table as it is). */
export function ensureColumn(sql: SqlStorage, table: string, column: string, definition: string): boolean {
  const has = sql.exec("SELECT 1 FROM pragma_table_info(?) WHERE name = ?", table, column).toArray().length > 0;
  if (!has) sql.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
  return !has;
}
