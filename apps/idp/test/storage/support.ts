import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { TestDatabaseKind } from '@customer-core/database/testing';
import {
  openContractDatabase,
  type ContractDatabase,
} from '@customer-core/database/testing/storage-contract';
import { idpMigrations, type IdpDatabase } from '../../src/index.js';

/** A fresh identity provider database of `kind` for one storage contract test file. */
export const openIdpStorage = (kind: TestDatabaseKind): Promise<ContractDatabase<IdpDatabase>> =>
  openContractDatabase<IdpDatabase>(kind, { idp: idpMigrations });

/**
 * A user, written as a row: the stores here do not read its password, so it has none worth hashing
 * (argon2 costs more than everything else these tests do). Its id and login.
 */
export async function newUser(db: Kysely<IdpDatabase>): Promise<{ id: string; login: string }> {
  const id = `00u${randomUUID().replaceAll('-', '').slice(0, 17)}`;
  const login = `user.${id}@example.com`;
  await db
    .insertInto('idp_user')
    .values({
      id,
      login,
      password_hash: 'not a password hash',
      first_name: 'Ada',
      last_name: 'Lovelace',
      locale: 'en_US',
      time_zone: 'UTC',
      password_changed_at: sql<Date>`now()`,
    })
    .execute();
  return { id, login };
}

/** An active e-mail factor of the user, written as a row; its id. */
export async function newEmailFactor(db: Kysely<IdpDatabase>, userId: string): Promise<string> {
  const { id } = await db
    .insertInto('idp_factor')
    .values({
      id: `uf${randomUUID().slice(0, 18)}`,
      user_id: userId,
      factor_type: 'email',
      provider: 'OKTA',
      status: 'ACTIVE',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** `seconds` from now by the database's clock (negative: ago), for rows made to have expired. */
export const fromNow = (seconds: number) => sql<Date>`now() + make_interval(secs => ${seconds})`;
