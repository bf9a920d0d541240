import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { loanEndpoints } from '@customer-core/contracts';
import { migrateToLatest, openDatabase, SchemaMismatchError, type Migrations } from '@customer-core/database';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '@customer-core/database/testing';
import { idpMigrations } from '@customer-core/idp';
import { apiMigrations } from '../src/db/migrations.js';
import { startTestServer } from '../testing/index.js';
import { call } from './support/loans.js';
import { demoSignInThroughIdp } from './support/session.js';

// An instance and the schema it finds (docs/decisions/0009-expand-contract-migrations.md): it refuses,
// in one line, a database not migrated or behind it (with MIGRATE_ON_START off) and one a later release
// contracted; it runs on one a later release only expanded. That last case stands for "the previous
// release against the new schema": this build plays the previous release, and the next release's
// migration is one more, written here as the rules allow it.

const COMPONENTS = { api: apiMigrations, idp: idpMigrations };

/** The next release's expand step: a table, a nullable column, an index. Old code never names them. */
const LATER_EXPAND: Migrations = {
  '9000_later_release_expand': {
    async up(db) {
      await sql`
        alter table borrower add column preferred_name text;
        create table borrower_note (
          id bigserial primary key,
          borrower_id uuid not null references borrower (id) on delete cascade,
          body text not null
        );
        create index borrower_note_borrower_idx on borrower_note (borrower_id);
      `.execute(db);
    },
  },
};

/** The release after that drops what this build reads: a contract step. */
const LATER_CONTRACT: Migrations = {
  '9001_later_release_contract': {
    contract: true,
    async up(db) {
      await sql`alter table borrower drop column first_name`.execute(db);
    },
  },
};

async function migrateWith(database: TestDatabase, extra: Migrations): Promise<void> {
  const db = openDatabase(database.location);
  try {
    await migrateToLatest(db, 'api', { ...apiMigrations, ...extra });
  } finally {
    await db.destroy();
  }
}

async function refusal(database: TestDatabase, env: Record<string, string>): Promise<string> {
  const error: unknown = await startTestServer(
    database.location.kind === 'postgres' ? 'postgres' : 'pglite',
    env,
    { database },
  ).then(
    async (server) => {
      await server.close();
      return undefined;
    },
    (thrown: unknown) => thrown,
  );
  assert.ok(error instanceof SchemaMismatchError, `refused with a schema mismatch, not ${String(error)}`);
  assert.doesNotMatch(error.message, /\n/, 'one line');
  return error.message;
}

const MIGRATE_STEP = { MIGRATE_ON_START: 'false' };

for (const kind of testDatabaseKinds()) {
  describe(`an instance and its schema (${kind})`, () => {
    it("runs on a later release's expand steps, and refuses a later contract step", async () => {
      const database = await createTestDatabase(kind, COMPONENTS, { own: true });
      try {
        await migrateWith(database, LATER_EXPAND);
        const server = await startTestServer(kind, MIGRATE_STEP, { database });
        try {
          // The whole way in: password sign-in at the identity provider, the token exchange, a page's data.
          const token = await demoSignInThroughIdp(server.baseUrl);
          const loans = await call(server.baseUrl, 'GET', loanEndpoints.loans.path, token);
          assert.equal(loans.status, 200);
        } finally {
          await server.close();
        }

        await migrateWith(database, { ...LATER_EXPAND, ...LATER_CONTRACT });
        for (const env of [MIGRATE_STEP, { MIGRATE_ON_START: 'true' }])
          assert.equal(
            await refusal(database, env),
            "The database's schema is newer than this release: a later release's migration api 9001_later_release_contract changed what this one reads. Start a release that knows it.",
          );
      } finally {
        await database.drop();
      }
    });

    it('with MIGRATE_ON_START off, refuses a database behind it or not migrated, naming the step to run', async () => {
      // What the instance reads of the schema is the migrations' bookkeeping: rows taken out of it
      // make a database behind this release, then one never migrated.
      const database = await createTestDatabase(kind, COMPONENTS, { own: true });
      const forget = async (statement: ReturnType<typeof sql>) => {
        const db = openDatabase(database.location);
        try {
          await statement.execute(db);
        } finally {
          await db.destroy();
        }
      };
      try {
        const last = Object.keys(apiMigrations).at(-1)!;
        await forget(sql`delete from api_migration where name = ${last}`);
        assert.equal(
          await refusal(database, MIGRATE_STEP),
          `The database's schema is behind this release: 1 migration pending (api ${last}). Run the migration step first: npm run cli -- migrate up (or start with MIGRATE_ON_START=true).`,
        );
        await forget(sql`delete from api_migration; delete from idp_migration`);
        assert.equal(
          await refusal(database, MIGRATE_STEP),
          'The database is not migrated yet. Run the migration step first: npm run cli -- migrate up (or start with MIGRATE_ON_START=true).',
        );
      } finally {
        await database.drop();
      }
    });
  });
}

describe('migrations follow expand and contract', () => {
  // Written before the rule (one drops a table): no release before it read a later schema. Fixed
  // here, so that every step added from now on is held to the rule.
  const BEFORE_THE_RULE = new Set([
    ...['0001_borrowers_and_tokens', '0002_session_families_and_lookup_tokens', '0003_mail_outbox'],
    ...['0004_link_tokens', '0005_loans_invitations_applications', '0006_exchanged_id_tokens'],
    ...['0007_session_rotation', '0008_email_links_coexist', '0009_loan_instalments'],
    ...['0010_signed_document_pdfs', '0011_account_security', '0012_security_activity'],
    ...['0013_email_change', '0015_security_event_factor', '0016_known_devices'],
    ...['0018_id_tokens_not_before', '0019_step_up_code', '0020_borrower_applications'],
    '0021_esign_consent_and_signers',
    ...['0001_identity_provider', '0002_sign_in_limits', '0004_factors', '0006_security_events'],
    ...['0007_email_and_recovery_factors', '0008_webauthn', '0009_transaction_primary_amr'],
    '0012_enrolment_wrong_codes',
  ]);
  const CHANGES_WHAT_IS_READ =
    /\b(drop\s+(table|column|index|constraint|view)|rename\s+(to|column)|set\s+not\s+null|alter\s+column\s+\w+\s+(set\s+data\s+)?type)\b/i;

  it('marks every step that drops, renames or narrows as a contract step', () => {
    const steps = [
      ...Object.entries(apiMigrations).map(([name, m]) => [`api ${name}`, name, m] as const),
      ...Object.entries(idpMigrations).map(([name, m]) => [`idp ${name}`, name, m] as const),
    ];
    const unmarked = steps
      .filter(([, name]) => !BEFORE_THE_RULE.has(name))
      .filter(([, , migration]) => CHANGES_WHAT_IS_READ.test(String(migration.up)) && !migration.contract)
      .map(([label]) => label);
    assert.deepEqual(unmarked, []);
  });

  it('tells such a step by its SQL (the check can fail)', () => {
    assert.match(String(LATER_CONTRACT['9001_later_release_contract']!.up), CHANGES_WHAT_IS_READ);
    assert.doesNotMatch(String(LATER_EXPAND['9000_later_release_expand']!.up), CHANGES_WHAT_IS_READ);
  });
});
