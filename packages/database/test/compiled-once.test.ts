import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { compiledOnce, openDatabase, statementsSent } from '@customer-core/database';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '@customer-core/database/testing';

// A statement built and compiled once, then sent with each call's values: the same text and answers
// as building it every time, and a builder that would make another text from its values is refused.

interface Tables {
  loan_note: { id: number; loan_id: string; body: string; written_at: Date | null };
}

for (const kind of testDatabaseKinds())
  describe(`a statement compiled once (${kind})`, () => {
    let database: TestDatabase;
    let db: Kysely<Tables>;
    before(async () => {
      database = await createTestDatabase(kind);
      db = openDatabase<Tables>(database.location);
      await sql`create table loan_note (id int primary key, loan_id text not null, body text not null, written_at timestamptz)`.execute(
        db,
      );
    });
    after(async () => {
      await sql`drop table loan_note`.execute(db);
      await db.destroy();
      await database.drop();
    });

    const addNote = compiledOnce((db: Kysely<Tables>, id: number, loanId: string, body: string) =>
      db
        .insertInto('loan_note')
        .values({ id, loan_id: loanId, body, written_at: sql<Date>`now()` })
        .returning(['id', 'body']),
    );
    // A value used twice, and a constant of the builder's between them.
    const notesOf = compiledOnce((db: Kysely<Tables>, loanId: string) =>
      db
        .selectFrom('loan_note')
        .select(['id', 'body'])
        .where('loan_id', '=', loanId)
        .where('body', '!=', 'withdrawn')
        .where(sql<boolean>`length(${loanId}) > 0`)
        .orderBy('id'),
    );

    it('sends each call its own values, in one statement each', async () => {
      const before = statementsSent(db)!;
      assert.deepEqual(await addNote(db, 1, 'loan-a', 'first'), [{ id: 1, body: 'first' }]);
      assert.deepEqual(await addNote(db, 2, 'loan-a', 'withdrawn'), [{ id: 2, body: 'withdrawn' }]);
      assert.deepEqual(await addNote(db, 3, 'loan-b', "it's"), [{ id: 3, body: "it's" }]);
      assert.equal(statementsSent(db)! - before, 3);
      assert.deepEqual(await notesOf(db, 'loan-a'), [{ id: 1, body: 'first' }]);
      assert.deepEqual(await notesOf(db, 'loan-b'), [{ id: 3, body: "it's" }]);
      assert.deepEqual(await notesOf(db, "loan-a' or true --"), []);
    });

    it('runs in a transaction it is given', async () => {
      await assert.rejects(
        db.transaction().execute(async (tx) => {
          await addNote(tx, 4, 'loan-c', 'rolled back');
          assert.equal((await notesOf(tx, 'loan-c')).length, 1);
          throw new Error('roll back');
        }),
        /roll back/,
      );
      assert.deepEqual(await notesOf(db, 'loan-c'), []);
    });

    it('refuses a builder that does not put a value in as it is', async () => {
      const byUpperLoan = compiledOnce((db: Kysely<Tables>, loanId: string) =>
        db.selectFrom('loan_note').select('id').where('loan_id', '=', String(loanId).toUpperCase()),
      );
      await assert.rejects(byUpperLoan(db, 'loan-a'), /value 0 is not a parameter of the statement/);
    });
  });
