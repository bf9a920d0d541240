import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { TestDatabaseKind } from '@customer-core/database/testing';
import {
  openContractDatabase,
  type ContractDatabase,
} from '@customer-core/database/testing/storage-contract';
import { apiMigrations } from '../../src/db/migrations.js';
import type { BorrowerIdentity } from '../../src/borrowers/borrower-repository.js';
import type { ApiDatabase } from '../../src/db/schema.js';

/** A fresh portal database of `kind` for one storage contract test file. */
export const openApiStorage = (kind: TestDatabaseKind): Promise<ContractDatabase<ApiDatabase>> =>
  openContractDatabase<ApiDatabase>(kind, { api: apiMigrations });

/** A borrower with an identity (signed in before), or without one (`linked: false`, as an operator adds). */
/** The issuer of the borrowers newBorrower links to an identity. */
const ISSUER = 'https://idp.example/oauth2/default';

export async function newBorrower(
  db: Kysely<ApiDatabase>,
  { linked = true, email }: { linked?: boolean; email?: string } = {},
): Promise<{ id: string; email: string; subject: string | null }> {
  const subject = linked ? `00u${randomUUID().replaceAll('-', '').slice(0, 17)}` : null;
  const address = email ?? `borrower.${randomUUID()}@example.com`;
  const { id } = await db
    .insertInto('borrower')
    .values({
      email: address,
      first_name: 'Dana',
      last_name: 'Demo',
      idp_issuer: subject ? ISSUER : null,
      idp_subject: subject,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, email: address, subject };
}

/** The identity of a linked borrower of newBorrower, with the names an ID token of theirs says. */
export const identityOf = (
  borrower: { email: string; subject: string | null },
  names = { firstName: 'Dana', lastName: 'Demo' },
): BorrowerIdentity => ({ issuer: ISSUER, subject: borrower.subject!, email: borrower.email, ...names });

/** `seconds` from now by the database's clock (negative: ago), for rows made to have expired. */
export const fromNow = (seconds: number) => sql<Date>`now() + make_interval(secs => ${seconds})`;
