import { createHash, randomInt } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import {
  STEP_UP_CODE_MAX_SENDS,
  STEP_UP_CODE_MAX_TRIES,
  STEP_UP_CODE_MAX_WRONG_PER_WINDOW,
  STEP_UP_CODE_SEND_WINDOW_SECONDS,
  STEP_UP_CODE_TTL_SECONDS,
} from '@customer-core/contracts';
import type { ApiDatabase } from '../db/schema.js';

/**
 * A 6-digit code has too few values for a hash to resist an offline search: the hash keeps it out of a
 * casual read of the table; the code lives 5 minutes, takes 5 wrong tries and is used once. The
 * borrower's id is in it, so one borrower's hash says nothing of another's.
 */
const codeHash = (borrowerId: string, code: string) =>
  createHash('sha256').update(`${borrowerId}:${code}`).digest('hex');

export type StepUpCodeClaim = 'accepted' | 'wrong_code' | 'spent' | 'too_many_tries';

/** The borrower's send window (its sends and wrong tries) is still open. */
const windowOpen = sql<boolean>`step_up_code.window_started_at > now() - make_interval(secs => ${STEP_UP_CODE_SEND_WINDOW_SECONDS})`;

/** The SQL of e-mailed step-up codes (step_up_code): one current code per borrower, for one session. */
export function stepUpCodeRepository(db: Kysely<ApiDatabase>) {
  return {
    /**
     * A new code for the borrower's session `sessionId`, replacing any code before (of any session);
     * undefined when the borrower has had their sends for the window. One statement: concurrent sends
     * cannot pass the limit together.
     */
    async issue(borrowerId: string, sessionId: string): Promise<string | undefined> {
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const row = await db
        .insertInto('step_up_code')
        .values({
          borrower_id: borrowerId,
          session_id: sessionId,
          code_hash: codeHash(borrowerId, code),
          expires_at: sql<Date>`now() + make_interval(secs => ${STEP_UP_CODE_TTL_SECONDS})`,
          tries_left: STEP_UP_CODE_MAX_TRIES,
          sends: 1,
          window_started_at: sql<Date>`now()`,
        })
        .onConflict((oc) =>
          oc
            .column('borrower_id')
            .doUpdateSet({
              session_id: (eb) => eb.ref('excluded.session_id'),
              code_hash: (eb) => eb.ref('excluded.code_hash'),
              expires_at: (eb) => eb.ref('excluded.expires_at'),
              tries_left: (eb) => eb.ref('excluded.tries_left'),
              sends: sql<number>`case when ${windowOpen} then step_up_code.sends + 1 else 1 end`,
              window_wrong: sql<number>`case when ${windowOpen} then step_up_code.window_wrong else 0 end`,
              window_started_at: sql<Date>`case when ${windowOpen} then step_up_code.window_started_at else now() end`,
            })
            .where(sql<boolean>`not ${windowOpen} or step_up_code.sends < ${STEP_UP_CODE_MAX_SENDS}`),
        )
        .returning('borrower_id')
        .executeTakeFirst();
      return row ? code : undefined;
    },

    /**
     * Takes one try at the borrower's current code from the session `sessionId`: 'accepted' takes the
     * code (once: of two presentations, a replay or a race, exactly one is accepted); a wrong one uses
     * a try, of the code's and of the window's; 'spent' when no code of this session is left to try
     * (none sent, used, expired or out of tries); 'too_many_tries' when the window has taken its wrong
     * tries (no code is checked until it has passed). The try is counted and decided in one
     * statement, so concurrent guesses cannot pass the limits together.
     */
    async claim(borrowerId: string, sessionId: string, code: string): Promise<StepUpCodeClaim> {
      const right = /^\d{6}$/.test(code) ? codeHash(borrowerId, code) : '';
      const row = await db
        .updateTable('step_up_code')
        .set({
          // A right code is taken; the last wrong try voids the code too.
          code_hash: sql<string | null>`case
            when code_hash = ${right} or tries_left <= 1 then null else code_hash end`,
          tries_left: sql<number>`case when code_hash = ${right} then tries_left else tries_left - 1 end`,
          window_wrong: sql<number>`case
            when code_hash = ${right} then window_wrong when ${windowOpen} then window_wrong + 1 else 1 end`,
        })
        .where('borrower_id', '=', borrowerId)
        .where('session_id', '=', sessionId)
        .where('code_hash', 'is not', null)
        .where('tries_left', '>', 0)
        .where('expires_at', '>', sql<Date>`now()`)
        .where(
          sql<boolean>`(step_up_code.window_wrong < ${STEP_UP_CODE_MAX_WRONG_PER_WINDOW} or not ${windowOpen})`,
        )
        // The row as updated: a taken code is gone with tries still left (the last wrong try leaves none).
        .returning(sql<boolean>`step_up_code.code_hash is null and step_up_code.tries_left > 0`.as('taken'))
        .executeTakeFirst();
      if (row) return row.taken ? 'accepted' : 'wrong_code';
      const paused = await db
        .selectFrom('step_up_code')
        .select('borrower_id')
        .where('borrower_id', '=', borrowerId)
        .where('session_id', '=', sessionId)
        .where('code_hash', 'is not', null)
        .where('expires_at', '>', sql<Date>`now()`)
        .where(
          sql<boolean>`step_up_code.window_wrong >= ${STEP_UP_CODE_MAX_WRONG_PER_WINDOW} and ${windowOpen}`,
        )
        .executeTakeFirst();
      return paused ? 'too_many_tries' : 'spent';
    },
  };
}

export type StepUpCodeRepository = ReturnType<typeof stepUpCodeRepository>;
