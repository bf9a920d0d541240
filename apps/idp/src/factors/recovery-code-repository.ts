import { createHash, randomInt } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { IdpDatabase } from '../schema.js';
import type { Factor } from './factor-repository.js';
import {
  ALPHABET,
  CODE_CHARACTERS,
  normalisedRecoveryCode,
  RECOVERY_CODE_COUNT,
  RECOVERY_CODE_FACTOR,
  recoveryFactorId,
} from './recovery-codes.js';

/**
 * Each code is 80 random bits: no search can find one from its hash, so a plain SHA-256 (no salt,
 * no slow hash such as argon2, which protects guessable passwords) is enough, and it lets one
 * statement find and delete the code presented.
 */
const codeHash = (code: string) => createHash('sha256').update(code).digest('hex');

function newCode(): string {
  let code = '';
  for (let i = 0; i < CODE_CHARACTERS; i += 1) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

/** xxxx-xxxx-xxxx-xxxx: four groups, easy to copy by hand. */
const grouped = (code: string) => code.match(/.{4}/g)!.join('-');

/** The SQL of recovery codes (idp_recovery_code): a user's set, each code used once. */
export function createRecoveryCodeRepository(db: Kysely<IdpDatabase>) {
  return {
    /** A new set of codes, shown once; the set before it stops working. */
    async generate(userId: string): Promise<string[]> {
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('idp_recovery_code').where('user_id', '=', userId).execute();
        await trx
          .insertInto('idp_recovery_code')
          .values(codes.map((code) => ({ user_id: userId, code_hash: codeHash(code) })))
          .execute();
      });
      return codes.map(grouped);
    },

    async remaining(userId: string): Promise<number> {
      const row = await db
        .selectFrom('idp_recovery_code')
        .select(sql<string>`count(*)`.as('count'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** Uses the code: one statement, so of two presentations of one code exactly one gets true. */
    async claim(userId: string, input: string): Promise<boolean> {
      const code = normalisedRecoveryCode(input);
      if (!code) return false;
      const result = await db
        .deleteFrom('idp_recovery_code')
        .where('user_id', '=', userId)
        .where('code_hash', '=', codeHash(code))
        .executeTakeFirst();
      return result.numDeletedRows === 1n;
    },

    async clear(userId: string): Promise<void> {
      await db.deleteFrom('idp_recovery_code').where('user_id', '=', userId).execute();
    },

    /** The recovery factor as MFA_REQUIRED lists it, while the user has codes left. */
    async factorOf(userId: string): Promise<Factor | undefined> {
      const row = await db
        .selectFrom('idp_recovery_code')
        .select(sql<Date>`min(created_at)`.as('created_at'))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!row?.created_at) return undefined;
      return {
        id: recoveryFactorId(userId),
        userId,
        ...RECOVERY_CODE_FACTOR,
        status: 'ACTIVE',
        secret: null,
        createdAt: new Date(row.created_at),
        lastUsedAt: null,
      };
    },
  };
}

export type RecoveryCodeRepository = ReturnType<typeof createRecoveryCodeRepository>;
