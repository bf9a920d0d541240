import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import { EMAIL_FACTOR, TOTP_FACTOR, type MfaPolicy } from '@customer-core/contracts/server';
import { placeIn, type SealedColumn, type SecretBox } from '@customer-core/database';
import type { IdpDatabase, IdpFactorTable } from '../schema.js';

export type FactorStatus = 'PENDING_ACTIVATION' | 'ACTIVE';

export interface Factor {
  id: string;
  userId: string;
  factorType: string;
  provider: string;
  status: FactorStatus;
  secret: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** Okta's factor ids are 20 letters and digits. */
export const newFactorId = () => `uf${randomBytes(9).toString('hex')}`;

/** Deletes the user's unfinished factors of `factorType`, before a new one is started. */
export async function deletePendingFactors(
  db: Kysely<IdpDatabase>,
  userId: string,
  factorType: string,
): Promise<void> {
  await db
    .deleteFrom('idp_factor')
    .where('user_id', '=', userId)
    .where('factor_type', '=', factorType)
    .where('status', '=', 'PENDING_ACTIVATION')
    .execute();
}

/**
 * Whether the policy asks the user's sign-in for a second factor, as an expression for the statement
 * that follows a right password: `off` never, `required` always, `optional` when the user has a
 * factor that signs in (activated; an e-mail one only where the provider sends mail), as
 * signInFactors.real lists them.
 */
export function secondFactorAsked(
  userId: string,
  policy: MfaPolicy,
  emailOffered: boolean,
): RawBuilder<boolean> {
  // Staff (a user in any group) are always asked, whatever the borrowers' policy.
  const staff = sql<boolean>`exists (select 1 from idp_user where id = ${userId} and groups <> '{}')`;
  if (policy === 'off') return staff;
  if (policy === 'required') return sql<boolean>`true`;
  return sql<boolean>`(${staff} or exists (
    select 1 from idp_factor where user_id = ${userId} and status = 'ACTIVE'
      and (${emailOffered} or factor_type <> ${EMAIL_FACTOR.factorType})))`;
}

/** A TOTP secret is sealed: a copy of the database gives away no second factor. */
export const FACTOR_SECRET: SealedColumn = { table: 'idp_factor', key: 'id', column: 'secret' };

function fromRow(row: Selectable<IdpFactorTable>): Factor {
  return {
    id: row.id,
    userId: row.user_id,
    factorType: row.factor_type,
    provider: row.provider,
    status: row.status as FactorStatus,
    secret: row.secret,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}

export function createFactorRepository(db: Kysely<IdpDatabase>, secrets: SecretBox) {
  const toFactor = (row: Selectable<IdpFactorTable>): Factor => {
    const factor = fromRow(row);
    return factor.secret === null
      ? factor
      : { ...factor, secret: secrets.open(factor.secret, placeIn(FACTOR_SECRET, factor.id)) };
  };

  async function createPending(
    userId: string,
    kind: { factorType: string; provider: string },
    secret: string | null,
  ): Promise<Factor> {
    // An e-mail factor keeps its pending row (no secret to renew): its send limit carries over, so
    // starting again and again cannot mail more codes than resending does.
    if (secret === null) {
      const pending = await db
        .selectFrom('idp_factor')
        .selectAll()
        .where('user_id', '=', userId)
        .where('factor_type', '=', kind.factorType)
        .where('status', '=', 'PENDING_ACTIVATION')
        .executeTakeFirst();
      if (pending) return toFactor(pending);
    }
    await deletePendingFactors(db, userId, kind.factorType);
    const id = newFactorId();
    const row = await db
      .insertInto('idp_factor')
      .values({
        id,
        user_id: userId,
        factor_type: kind.factorType,
        provider: kind.provider,
        status: 'PENDING_ACTIVATION',
        secret: secret === null ? null : secrets.seal(secret, placeIn(FACTOR_SECRET, id)),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toFactor(row);
  }

  return {
    /** The user's factors that sign in (activated), oldest first. */
    async active(userId: string): Promise<Factor[]> {
      const rows = await db
        .selectFrom('idp_factor')
        .selectAll()
        .where('user_id', '=', userId)
        .where('status', '=', 'ACTIVE')
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toFactor);
    },

    /** Every factor of the user, pending ones included, oldest first (Okta's List Factors). */
    async all(userId: string): Promise<Factor[]> {
      const rows = await db
        .selectFrom('idp_factor')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toFactor);
    },

    /** Deletes the user's factor; false when they have none with this id. */
    async remove(userId: string, factorId: string): Promise<boolean> {
      const result = await db
        .deleteFrom('idp_factor')
        .where('id', '=', factorId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return result.numDeletedRows === 1n;
    },

    /** The user's factor with this id: another user's id finds nothing, as an unknown one does. */
    async find(userId: string, factorId: string): Promise<Factor | undefined> {
      const row = await db
        .selectFrom('idp_factor')
        .selectAll()
        .where('id', '=', factorId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row && toFactor(row);
    },

    /** A TOTP factor waiting for its first code; earlier unfinished ones of the user go. */
    createPendingTotp: (userId: string, secret: string) => createPending(userId, TOTP_FACTOR, secret),

    /** A factor of `kind` waiting for its first code: a new one, or the unfinished one without a secret. */
    createPending,

    /**
     * A new first code was mailed for the pending factor (it replaces the one before): a new allowance
     * of wrong codes, as a new factor would have. Only then: a start that mails nothing leaves the
     * live code, and the guesses taken at it, as they are.
     */
    async newFirstCode(factorId: string): Promise<void> {
      await db.updateTable('idp_factor').set({ wrong_codes: 0 }).where('id', '=', factorId).execute();
    },

    /**
     * Takes one try at a pending factor's first code, before the code is checked: one statement counts
     * and decides, so concurrent codes cannot pass the ceiling together. False when the enrolment has
     * taken `ceiling` wrong codes (or the factor is no longer pending): it must be started again.
     */
    async reserveFirstCode(factorId: string, ceiling: number): Promise<boolean> {
      const result = await db
        .updateTable('idp_factor')
        .set({ wrong_codes: sql<number>`wrong_codes + 1` })
        .where('id', '=', factorId)
        .where('status', '=', 'PENDING_ACTIVATION')
        .where('wrong_codes', '<', ceiling)
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    /**
     * A code of the factor was right (one kept outside this table, e.g. an e-mailed one): activates
     * it if pending, else records the use, as claimTotpStep does.
     */
    async codeAccepted(factorId: string): Promise<void> {
      await db
        .updateTable('idp_factor')
        .set({
          last_used_at: sql<Date>`case when status = 'ACTIVE' then now() else last_used_at end`,
          status: 'ACTIVE',
        })
        .where('id', '=', factorId)
        .execute();
    },

    /**
     * Takes TOTP time step `step` for the factor, activating it if it was pending: one statement, so
     * of two presentations of one code (a replay, or a race) exactly one gets true. `last used` is a
     * verification of an active factor; the first code that activates one is not a use.
     */
    async claimTotpStep(factorId: string, step: number): Promise<boolean> {
      const result = await db
        .updateTable('idp_factor')
        .set({
          last_used_step: step,
          last_used_at: sql<Date>`case when status = 'ACTIVE' then now() else last_used_at end`,
          status: 'ACTIVE',
        })
        .where('id', '=', factorId)
        .where((eb) =>
          eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', sql<string>`${step}`)]),
        )
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },
  };
}

export type FactorRepository = ReturnType<typeof createFactorRepository>;
