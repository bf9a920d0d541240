import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { IdpDatabase } from '../../schema.js';
import { deletePendingFactors, newFactorId } from '../factor-repository.js';

/** Okta's WebAuthn factor: a security key or a passkey. */
export const WEBAUTHN_FACTOR = { factorType: 'webauthn', provider: 'FIDO' } as const;

export type ChallengePurpose = 'enrol' | 'verify' | 'passkey';

export interface WebauthnCredential {
  factorId: string;
  userId: string;
  /** base64url */
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  signCount: number;
  transports: string[];
  name: string;
}

/**
 * WebAuthn credentials and the challenges handed out for them. A challenge is taken by deleting it
 * (one statement: of two presentations exactly one gets it); the signature counter moves on only
 * from the value read, so a replayed or raced assertion is refused.
 */
export function createWebauthnRepository(db: Kysely<IdpDatabase>, challengeTtlSeconds: number) {
  const toCredential = (row: {
    factor_id: string;
    user_id: string;
    credential_id: string;
    public_key: string;
    sign_count: string;
    transports: string | null;
    name: string;
  }): WebauthnCredential => ({
    factorId: row.factor_id,
    userId: row.user_id,
    credentialId: row.credential_id,
    publicKey: row.public_key,
    signCount: Number(row.sign_count),
    transports: row.transports ? row.transports.split(',') : [],
    name: row.name,
  });

  const activeCredentials = () =>
    db
      .selectFrom('idp_webauthn_credential as c')
      .innerJoin('idp_factor as f', 'f.id', 'c.factor_id')
      .where('f.status', '=', 'ACTIVE')
      .select([
        'c.factor_id',
        'c.user_id',
        'c.credential_id',
        'c.public_key',
        'c.sign_count',
        'c.transports',
        'c.name',
      ]);

  return {
    /** A new challenge (256 random bits) for `purpose`, bound to a user and factor where given. */
    async issueChallenge(
      purpose: ChallengePurpose,
      userId: string | null,
      factorId: string | null,
    ): Promise<string> {
      const challenge = randomBytes(32).toString('base64url');
      await db
        .insertInto('idp_webauthn_challenge')
        .values({
          challenge,
          purpose,
          user_id: userId,
          factor_id: factorId,
          expires_at: sql<Date>`now() + make_interval(secs => ${challengeTtlSeconds})`,
        })
        .execute();
      return challenge;
    },

    /** Takes an unexpired challenge once; undefined when it is unknown, expired, used or not for this. */
    async takeChallenge(
      challenge: string,
      purpose: ChallengePurpose,
      userId: string | null,
      factorId: string | null,
    ): Promise<{ userId: string | null; factorId: string | null } | undefined> {
      let query = db
        .deleteFrom('idp_webauthn_challenge')
        .where('challenge', '=', challenge)
        .where('purpose', '=', purpose)
        .where('expires_at', '>', sql<Date>`now()`);
      query = userId === null ? query.where('user_id', 'is', null) : query.where('user_id', '=', userId);
      query =
        factorId === null ? query.where('factor_id', 'is', null) : query.where('factor_id', '=', factorId);
      const row = await query.returning(['user_id', 'factor_id']).executeTakeFirst();
      return row && { userId: row.user_id, factorId: row.factor_id };
    },

    /** A WebAuthn factor waiting for its attestation; earlier unfinished ones of the user go. */
    async createPendingFactor(userId: string): Promise<string> {
      await deletePendingFactors(db, userId, WEBAUTHN_FACTOR.factorType);
      const id = newFactorId();
      await db
        .insertInto('idp_factor')
        .values({
          id,
          user_id: userId,
          factor_type: WEBAUTHN_FACTOR.factorType,
          provider: WEBAUTHN_FACTOR.provider,
          status: 'PENDING_ACTIVATION',
          secret: null,
        })
        .execute();
      return id;
    },

    /** Writes the credential and activates its pending factor, in one transaction; false if it is not pending. */
    /**
     * Activates the pending factor with its credential: false when there is no such pending factor,
     * 'taken' when another factor got this credential first (a race the caller's check cannot see),
     * in which case nothing changes.
     */
    async activate(
      credential: Omit<WebauthnCredential, 'signCount'> & { signCount: number },
    ): Promise<boolean | 'taken'> {
      const taken = new Error('credential taken');
      return db
        .transaction()
        .execute(async (trx) => {
          const updated = await trx
            .updateTable('idp_factor')
            .set({ status: 'ACTIVE' })
            .where('id', '=', credential.factorId)
            .where('user_id', '=', credential.userId)
            .where('factor_type', '=', WEBAUTHN_FACTOR.factorType)
            .where('status', '=', 'PENDING_ACTIVATION')
            .executeTakeFirst();
          if (updated.numUpdatedRows !== 1n) return false;
          const inserted = await trx
            .insertInto('idp_webauthn_credential')
            .values({
              factor_id: credential.factorId,
              user_id: credential.userId,
              credential_id: credential.credentialId,
              public_key: credential.publicKey,
              sign_count: credential.signCount,
              transports: credential.transports.length > 0 ? credential.transports.join(',') : null,
              name: credential.name,
            })
            .onConflict((oc) => oc.column('credential_id').doNothing())
            .executeTakeFirst();
          // Thrown to roll the activation back with the transaction.
          if ((inserted.numInsertedOrUpdatedRows ?? 0n) === 0n) throw taken;
          return true;
        })
        .catch((error: unknown) => {
          if (error === taken) return 'taken' as const;
          throw error;
        });
    },

    /** Whether any user has registered this credential id already. */
    async credentialExists(credentialId: string): Promise<boolean> {
      const row = await db
        .selectFrom('idp_webauthn_credential')
        .select('factor_id')
        .where('credential_id', '=', credentialId)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The user's active credentials (to exclude at enrolment, to name in the list). */
    async ofUser(userId: string): Promise<WebauthnCredential[]> {
      const rows = await activeCredentials().where('c.user_id', '=', userId).execute();
      return rows.map(toCredential);
    },

    /** The active credential of this factor of the user. */
    async ofFactor(userId: string, factorId: string): Promise<WebauthnCredential | undefined> {
      const row = await activeCredentials()
        .where('c.user_id', '=', userId)
        .where('c.factor_id', '=', factorId)
        .executeTakeFirst();
      return row && toCredential(row);
    },

    /** The active credential with this id, whoever's (a passkey sign-in names no user first). */
    async byCredentialId(credentialId: string): Promise<WebauthnCredential | undefined> {
      const row = await activeCredentials().where('c.credential_id', '=', credentialId).executeTakeFirst();
      return row && toCredential(row);
    },

    /**
     * Records a verified use: the counter moves from `from` to `to` and the factor's last use is now.
     * False when the counter read is no longer the stored one (a concurrent use of the credential).
     */
    async recordUse(factorId: string, from: number, to: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const moved = await trx
          .updateTable('idp_webauthn_credential')
          .set({ sign_count: to })
          .where('factor_id', '=', factorId)
          .where('sign_count', '=', sql<string>`${from}`)
          .executeTakeFirst();
        if (moved.numUpdatedRows !== 1n) return false;
        await trx
          .updateTable('idp_factor')
          .set({ last_used_at: sql<Date>`now()` })
          .where('id', '=', factorId)
          .execute();
        return true;
      });
    },
  };
}

export type WebauthnRepository = ReturnType<typeof createWebauthnRepository>;
