import { CompiledQuery, type Compilable, type Kysely } from 'kysely';

/** What a statement is built with the first time, in place of each value it is given. */
class StandIn {
  constructor(readonly index: number) {}
}

/** Each parameter of the compiled statement: the index of a value given, or a constant of the builder's. */
type Slot = { value: number } | { constant: unknown };

/**
 * A statement of fixed shape that Kysely builds and compiles once, then sends with each call's values.
 * Building and compiling a statement costs more CPU than sending it and reading its answer, every time,
 * for a text that never changes: the identity provider's statements of a sign-in, built once, took a
 * seventh off the server's event loop CPU per sign-in (bench/README.md).
 *
 * `build` is given stand-ins for its values on the first call, so each must go into the statement as it
 * is (a hash or a JSON text made before, not in `build`), and must not shape it: no value may decide a
 * clause, a list's length or whether a column is written (Kysely leaves out an undefined one: pass null).
 * A value that does not reach the statement as a parameter is an error on the first call. Whatever else
 * `build` reads is read once, on that call: every call's own value goes through `values`, never a closure.
 */
export function compiledOnce<DB, Values extends readonly unknown[], Row>(
  build: (db: Kysely<DB>, ...values: Values) => Compilable<Row>,
): (db: Kysely<DB>, ...values: Values) => Promise<Row[]> {
  let compiled: { sql: string; slots: Slot[] } | undefined;
  return async (db, ...values) => {
    if (!compiled) {
      const standIns = values.map((_, index) => new StandIn(index));
      const query = build(db, ...(standIns as unknown as Values)).compile();
      const missing = standIns.filter((standIn) => !query.parameters.includes(standIn));
      if (missing.length > 0) {
        throw new Error(
          `compiledOnce: value ${missing.map((s) => s.index).join(', ')} is not a parameter of the statement as given: ${query.sql}`,
        );
      }
      compiled = {
        sql: query.sql,
        slots: query.parameters.map((p) => (p instanceof StandIn ? { value: p.index } : { constant: p })),
      };
    }
    const parameters = compiled.slots.map((slot) => ('value' in slot ? values[slot.value] : slot.constant));
    return (await db.executeQuery<Row>(CompiledQuery.raw(compiled.sql, parameters))).rows;
  };
}
