import { createHash, randomInt } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { IdpDatabase } from '../schema.js';
import {
  EMAIL_CODE_MAX_SENDS,
  EMAIL_CODE_SEND_WINDOW_SECONDS,
  EMAIL_CODE_TTL_SECONDS,
} from './email-factor.js';

/**
 * A 6-digit code has too few values for any hash to resist an offline search; the hash keeps the
 * code out of a casual read of the table, and the code lives 5 minutes and is used once. The factor
 * id is part of it so that one user's code hash says nothing of another's.
 */
const codeHash = (factorId: string, code: string) =>
  createHash('sha256').update(`${factorId}:${code}`).digest('hex');

/** The SQL of e-mailed codes (idp_factor_code): one current code per factor, its sends counted per window. */
export function createEmailCodeRepository(db: Kysely<IdpDatabase>) {
  return {
    /**
     * A new code for the factor, replacing the one before; undefined when the factor has had its
     * sends for the window. One statement: concurrent sends cannot pass the limit together.
     */
    async issue(factorId: string): Promise<string | undefined> {
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const windowOpen = sql<boolean>`idp_factor_code.window_started_at > now() - make_interval(secs => ${EMAIL_CODE_SEND_WINDOW_SECONDS})`;
      const row = await db
        .insertInto('idp_factor_code')
        .values({
          factor_id: factorId,
          code_hash: codeHash(factorId, code),
          expires_at: sql<Date>`now() + make_interval(secs => ${EMAIL_CODE_TTL_SECONDS})`,
          sends: 1,
          window_started_at: sql<Date>`now()`,
        })
        .onConflict((oc) =>
          oc
            .column('factor_id')
            .doUpdateSet({
              code_hash: (eb) => eb.ref('excluded.code_hash'),
              expires_at: (eb) => eb.ref('excluded.expires_at'),
              sends: sql<number>`case when ${windowOpen} then idp_factor_code.sends + 1 else 1 end`,
              window_started_at: sql<Date>`case when ${windowOpen} then idp_factor_code.window_started_at else now() end`,
            })
            .where(sql<boolean>`not ${windowOpen} or idp_factor_code.sends < ${EMAIL_CODE_MAX_SENDS}`),
        )
        .returning('factor_id')
        .executeTakeFirst();
      return row ? code : undefined;
    },

    /**
     * Takes the factor's current code if `code` is it and it has not expired: one statement, so of
     * two presentations of one code (a replay, or a race) exactly one gets true.
     */
    async claim(factorId: string, code: string): Promise<boolean> {
      if (!/^\d{6}$/.test(code)) return false;
      const result = await db
        .updateTable('idp_factor_code')
        .set({ code_hash: null })
        .where('factor_id', '=', factorId)
        .where('code_hash', '=', codeHash(factorId, code))
        .where('expires_at', '>', sql<Date>`now()`)
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },
  };
}

export type EmailCodeRepository = ReturnType<typeof createEmailCodeRepository>;
