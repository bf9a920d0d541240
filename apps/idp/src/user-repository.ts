import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import { z } from 'zod';
import {
  EMAIL_FACTOR,
  EMAIL_LINK_AMR,
  UserLocaleSchema,
  UserLocaleValue,
  UserTimeZoneSchema,
} from '@customer-core/contracts/server';
import type { IdpDatabase, IdpUserTable } from './schema.js';
import type { PasswordHasher } from './passwords.js';

export interface IdpUser {
  id: string;
  login: string;
  firstName: string;
  lastName: string;
  locale: string;
  timeZone: string;
  emailVerified: boolean;
  passwordChangedAt: Date;
  createdAt: Date;
  /** The staff console's groups (its roles); empty for a borrower. */
  groups: string[];
}

export const NewUserSchema = z.object({
  login: z.string().trim().min(1).max(320),
  // Password rules belong to the portal's forms; here only a bound that keeps hashing cheap to refuse.
  password: z.string().min(1).max(1024),
  firstName: z.string().trim().min(1).max(100),
  lastName: z.string().trim().min(1).max(100),
  locale: UserLocaleSchema,
  timeZone: UserTimeZoneSchema,
  emailVerified: z.boolean().default(true),
  groups: z.array(z.string().min(1).max(100)).max(20).default([]),
});
export type NewUser = z.input<typeof NewUserSchema>;

export class LoginAlreadyExistsError extends Error {
  constructor() {
    super('A user with this login already exists');
    this.name = 'LoginAlreadyExistsError';
  }
}

export interface UserCredentials {
  user: IdpUser;
  passwordHash: string;
}

export function toUser(row: Omit<Selectable<IdpUserTable>, 'password_hash'>): IdpUser {
  return {
    id: row.id,
    login: row.login,
    firstName: row.first_name,
    lastName: row.last_name,
    locale: row.locale,
    timeZone: row.time_zone,
    emailVerified: row.email_verified,
    passwordChangedAt: row.password_changed_at,
    createdAt: row.created_at,
    groups: row.groups,
  };
}

const byLogin = (login: string) => sql<boolean>`lower(login) = lower(${login.trim()})`;

/**
 * Every column of idp_user, named (the type makes the list whole): a statement that names its columns
 * is prepared once per connection (packages/database), one that reads `idp_user.*` is not.
 */
const USER_COLUMNS: Record<keyof IdpUserTable, true> = {
  id: true,
  login: true,
  password_hash: true,
  first_name: true,
  last_name: true,
  locale: true,
  time_zone: true,
  email_verified: true,
  password_changed_at: true,
  created_at: true,
  groups: true,
};
const userColumns = sql.join(Object.keys(USER_COLUMNS).map((column) => sql.ref(`idp_user.${column}`)));
/** The columns `toUser` reads, for a statement that joins the user in (the hash left out). */
export const USER_PROFILE_COLUMNS = Object.keys(USER_COLUMNS)
  .filter((column) => column !== 'password_hash')
  .map((column) => `idp_user.${column as Exclude<keyof IdpUserTable, 'password_hash'>}` as const);

/** The users; new passwords hashed by `passwords` (at its cost). */
export function createUserRepository(db: Kysely<IdpDatabase>, passwords: PasswordHasher) {
  /** Inserts unless the login is taken; undefined when it is. */
  async function insert(input: NewUser): Promise<IdpUser | undefined> {
    const user = NewUserSchema.parse(input);
    const passwordHash = await passwords.hash(user.password);
    const row = await db
      .insertInto('idp_user')
      .values({
        id: randomUUID(),
        login: user.login,
        password_hash: passwordHash,
        first_name: user.firstName,
        last_name: user.lastName,
        locale: user.locale,
        time_zone: user.timeZone,
        email_verified: user.emailVerified,
        groups: user.groups,
        password_changed_at: sql<Date>`now()`,
      })
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst();
    return row && toUser(row);
  }

  async function findByLogin(login: string): Promise<IdpUser | undefined> {
    const row = await db.selectFrom('idp_user').selectAll().where(byLogin(login)).executeTakeFirst();
    return row && toUser(row);
  }

  async function liftLockouts(id: string): Promise<void> {
    await db.deleteFrom('idp_login_failure').where('user_id', '=', id).execute();
    await db.deleteFrom('idp_account_failure').where('user_id', '=', id).execute();
  }

  return {
    async create(input: NewUser): Promise<IdpUser> {
      const user = await insert(input);
      if (!user) throw new LoginAlreadyExistsError();
      return user;
    },

    /** Seeding: creates the user when missing; an existing user (and its password) is left as it is. */
    async ensure(input: NewUser): Promise<IdpUser> {
      const existing = await findByLogin(input.login);
      if (existing) return existing;
      const created = await insert(input);
      if (created) return created;
      // Another instance created it between our read and insert.
      const raced = await findByLogin(input.login);
      if (!raced) throw new Error('user vanished while being ensured');
      return raced;
    },

    findByLogin,

    async findById(id: string): Promise<IdpUser | undefined> {
      const row = await db.selectFrom('idp_user').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toUser(row);
    },

    /** The user and their password hash: what a sign-in needs, in one query. */
    /**
     * The user by login and whether `locked` holds for them (for no user: for `noUser`), in one
     * statement: the same one whether or not the login exists.
     */
    async findCredentialsAndLock(
      login: string,
      locked: (userId: RawBuilder<string>) => RawBuilder<boolean>,
      noUser: string,
    ): Promise<{ credentials: UserCredentials | undefined; locked: boolean }> {
      const { rows } = await sql<Selectable<IdpUserTable> & { locked_now: boolean }>`
        select ${userColumns}, ${locked(sql<string>`coalesce(idp_user.id, ${noUser})`)} as locked_now
        from (select 1) as one left join idp_user on ${byLogin(login)}`.execute(db);
      const { locked_now, ...row } = rows[0]!;
      return {
        credentials: row.id === null ? undefined : { user: toUser(row), passwordHash: row.password_hash },
        locked: locked_now === true,
      };
    },

    async findCredentials(login: string): Promise<UserCredentials | undefined> {
      const row = await db.selectFrom('idp_user').selectAll().where(byLogin(login)).executeTakeFirst();
      return row && { user: toUser(row), passwordHash: row.password_hash };
    },

    /**
     * The user's new sign-in name (an e-mail address, kept as the login). Throws
     * LoginAlreadyExistsError when another user has it; the unique index decides under concurrency.
     * In the same transaction, what was sent to the old address stops working: the e-mailed codes of
     * the user's e-mail factor (a sign-in's, or the one confirming a new factor), and the sign-ins an
     * e-mailed link began that wait for a second factor.
     */
    async changeLogin(id: string, login: string): Promise<void> {
      const parsed = NewUserSchema.shape.login.parse(login);
      await db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('idp_user')
          .set({ login: parsed, email_verified: true })
          .where('id', '=', id)
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('idp_user as other')
                  .select('other.id')
                  .where(sql<boolean>`lower(other.login) = lower(${parsed})`)
                  .where('other.id', '<>', id),
              ),
            ),
          )
          .executeTakeFirst()
          .catch((error: unknown) => {
            // Taken by a concurrent change between the check above and the write.
            if ((error as { code?: string }).code === '23505') throw new LoginAlreadyExistsError();
            throw error;
          });
        if (result.numUpdatedRows === 0n) {
          const exists = await trx
            .selectFrom('idp_user')
            .select('id')
            .where('id', '=', id)
            .executeTakeFirst();
          throw exists ? new LoginAlreadyExistsError() : new Error('no such user');
        }
        // The window's count of sends stays: a new code for the new address is still within the limit.
        await trx
          .updateTable('idp_factor_code')
          .set({ code_hash: null })
          .where('factor_id', 'in', (eb) =>
            eb
              .selectFrom('idp_factor')
              .select('idp_factor.id')
              .where('idp_factor.user_id', '=', id)
              .where('idp_factor.factor_type', '=', EMAIL_FACTOR.factorType),
          )
          .execute();
        await trx
          .deleteFrom('idp_authn_transaction')
          .where('user_id', '=', id)
          .where('primary_amr', '=', EMAIL_LINK_AMR.join(','))
          .execute();
      });
    },

    /** The user's locale as Okta's profile writes it (es_US); false for no such user. */
    async setLocale(id: string, locale: string): Promise<boolean> {
      const parsed = UserLocaleValue.parse(locale);
      const result = await db
        .updateTable('idp_user')
        .set({ locale: parsed })
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async setPassword(id: string, password: string): Promise<void> {
      const parsed = NewUserSchema.shape.password.parse(password);
      const passwordHash = await passwords.hash(parsed);
      const result = await db
        .updateTable('idp_user')
        .set({ password_hash: passwordHash, password_changed_at: sql<Date>`now()` })
        .where('id', '=', id)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) throw new Error('no such user');
      // A new password proves control of the account: earlier lockouts no longer apply.
      await liftLockouts(id);
    },

    /** Puts the user in exactly these groups (the staff console's roles); false for no such user. */
    async setGroups(id: string, groups: string[]): Promise<boolean> {
      const parsed = NewUserSchema.shape.groups.parse(groups);
      const result = await db
        .updateTable('idp_user')
        .set({ groups: parsed })
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** The users in any of these groups, by login. */
    async inGroups(groups: string[]): Promise<IdpUser[]> {
      const rows = await db
        .selectFrom('idp_user')
        .selectAll()
        .where(sql<boolean>`groups && ${sql.val(groups)}::text[]`)
        .orderBy(sql`lower(login)`)
        .execute();
      return rows.map(toUser);
    },

    /** Lifts the user's lockouts, from every address and account-wide (support, after checking who calls). */
    liftLockouts,

    /**
     * Deletes the user and, with it, everything kept by their id: password, factors and their secrets,
     * passkeys, recovery codes, failures and session tokens. False when there is no such user.
     */
    async delete(id: string): Promise<boolean> {
      const result = await db.deleteFrom('idp_user').where('id', '=', id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

export type UserRepository = ReturnType<typeof createUserRepository>;
