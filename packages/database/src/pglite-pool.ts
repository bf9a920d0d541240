import { parse, protocol, type PGlite, type Results } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import { statementName } from './prepared-statements.js';

/** Each instance's turns: every pool over one instance takes its turn in the same queue. */
const queues = new WeakMap<PGlite, { tail: Promise<void> }>();

/**
 * Presents one PGlite instance as a pg-style pool to Kysely's PostgresDialect.
 * PGlite has a single connection, so the pool lends it to one holder at a time, and so do other pools
 * over the same instance: without that, a query from another request would run inside someone else's
 * transaction. `borrowed`: the instance outlives the pool (ending the pool leaves it open).
 */
export function createPGlitePool(pglite: PGlite, { borrowed = false } = {}): PostgresPool {
  const turns = queues.get(pglite) ?? { tail: Promise.resolve() };
  queues.set(pglite, turns);

  const client = (release: () => void): PostgresPoolClient => ({
    // Kysely only streams through a cursor when one is configured; this pool offers none.
    query: (async <R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> => {
      // What query() checks first: the protocol calls assume a started, open instance. Started
      // before its turn is taken: starting runs queries of its own, which take turns too.
      if (!pglite.ready) await pglite.waitReady;
      const result = await pglite.runExclusive(() => {
        if (pglite.closed) throw new Error('PGlite is closed');
        return run(pglite, sql, parameters);
      });
      const rows = (result?.rows ?? []) as R[];
      return {
        command: commandOf(sql),
        rowCount: result?.affectedRows ?? rows.length,
        rows,
      };
    }) as PostgresPoolClient['query'],
    release,
  });

  return {
    connect() {
      let release!: () => void;
      const turn = new Promise<void>((resolve) => (release = resolve));
      const acquired = turns.tail.then(() => client(release));
      turns.tail = turns.tail.then(() => turn);
      return acquired;
    },
    async end() {
      await turns.tail;
      if (!borrowed) await pglite.close();
    },
  };
}

const { serialize } = protocol;
/** Per instance: the parameter types of each statement it has prepared, by name. */
const described = new WeakMap<PGlite, Map<string, number[]>>();

/**
 * Runs one statement in as few calls into PGlite as the protocol allows. PGlite's own query() makes
 * six (parse, describe, bind, describe, execute, sync), each a pass through its message loop, and
 * parses and plans the text every time; here a prepared statement is one call (bind, describe,
 * execute, sync), a text seen for the first time one more to learn its parameters' types (each
 * value is then serialised as query() would). Parameterless SQL may hold several statements
 * (migrations): it goes by the simple protocol, which runs them all.
 */
async function run(
  pglite: PGlite,
  sql: string,
  values: ReadonlyArray<unknown>,
): Promise<Results | undefined> {
  if (values.length === 0)
    return parse.parseResults(await send(pglite, [serialize.query(sql)]), pglite.parsers).at(-1);
  const name = statementName(pglite, sql, { columnsAddedWhileServing: false });
  const parameterTypes =
    (name !== undefined && described.get(pglite)?.get(name)) || (await describe(pglite, sql, name));
  const messages = await send(pglite, [
    serialize.bind({
      statement: name,
      values: values.map((value, i) => {
        if (value === null || value === undefined) return null;
        const serializer = pglite.serializers[parameterTypes[i]!];
        if (serializer) return serializer(value);
        // A type PGlite has no serializer for takes the value's text (an object's JSON, not "[object Object]").
        return typeof value === 'object'
          ? JSON.stringify(value)
          : (value as { toString(): string }).toString();
      }),
    }),
    serialize.describe({ type: 'P' }),
    serialize.execute({}),
    serialize.sync(),
  ]);
  return parse.parseResults(messages, pglite.parsers)[0];
}

/** Parses a text (named: kept by the instance) and learns its parameters' types, kept with the name. */
async function describe(pglite: PGlite, sql: string, name: string | undefined): Promise<number[]> {
  const messages = await send(
    pglite,
    [serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name }), serialize.sync()],
    { syncToFs: false },
  );
  const types = parse.parseDescribeStatementResults(messages);
  if (name !== undefined) {
    const byName = described.get(pglite) ?? new Map<string, number[]>();
    described.set(pglite, byName.set(name, types));
  }
  return types;
}

/**
 * Protocol messages sent to PGlite in one call; a database error is thrown once every message has
 * been answered (the last is a sync, so the connection is ready for the next statement). A data
 * folder is written after each statement, as query() does, unless told the statement wrote nothing.
 */
async function send(pglite: PGlite, messages: Uint8Array[], { syncToFs = true } = {}) {
  return (await pglite.execProtocol(Buffer.concat(messages), { syncToFs })).messages;
}

function commandOf(sql: string): PostgresQueryResult<unknown>['command'] {
  const keyword = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase();
  return keyword === 'INSERT' || keyword === 'UPDATE' || keyword === 'DELETE' || keyword === 'MERGE'
    ? keyword
    : 'SELECT';
}
