import { createHash } from 'node:crypto';

/**
 * Named statements: PostgreSQL parses and plans a named statement's text once per connection instead
 * of on every call: 10 to 25 % less of its CPU per sign-in in the bench (bench/README.md); PGlite, one
 * connection per instance, likewise (pglite-pool.ts). Only statements with parameters (one command
 * each; a text without goes by the simple protocol, which may hold several), and at most
 * PREPARED_PER_CONNECTION texts per connection: texts with lists of varying length differ, and each
 * prepared one holds memory on the server until the connection closes. Past that, unnamed.
 */
export const PREPARED_PER_CONNECTION = 500;
/** Per connection: each text it has prepared, and its name (pg keeps the texts by name likewise). */
const preparedOn = new WeakMap<object, Map<string, string>>();

/** The name of a statement's text: the same on every connection and in every process. */
function preparedName(text: string): string {
  return `cc_${createHash('sha1').update(text).digest('base64url')}`;
}

/**
 * A text whose result columns are read from a table as it is (`select *`, `returning *`, `t.*`): a
 * prepared one fails once a column is added ("cached plan must not change result type"), which a
 * release's migration does while the release before it still serves. `count(*)` names no columns,
 * and `a * b` multiplies.
 */
const EVERY_COLUMN = /(?:\bselect|\breturning|,|\.)\s*\*/i;
const readsEveryColumn = (text: string) => EVERY_COLUMN.test(text);

/**
 * The name to prepare a text with parameters under on a connection, or undefined to send it unnamed:
 * one more than the connection has room for, or one that reads every column where another release's
 * migration may add one while this one serves (not in embedded PGlite: one process, migrated before
 * it serves).
 */
export function statementName(
  connection: object,
  text: string,
  { columnsAddedWhileServing = true } = {},
): string | undefined {
  let prepared = preparedOn.get(connection);
  if (!prepared) preparedOn.set(connection, (prepared = new Map<string, string>()));
  // A text seen before on this connection is neither hashed nor scanned again.
  let name = prepared.get(text);
  if (name === undefined) {
    if (prepared.size >= PREPARED_PER_CONNECTION || (columnsAddedWhileServing && readsEveryColumn(text))) {
      return undefined;
    }
    name = preparedName(text);
    prepared.set(text, name);
  }
  return name;
}
