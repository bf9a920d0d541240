import {
  accountApiPaths,
  AccountSessionListSchema,
  EndedSessionsSchema,
  type AccountSession,
} from '@customer-core/contracts';
import { describeFailure } from '../../lib/api-failure';
import { sessionRequest } from '../../lib/auth/session-request';

// The borrower's own account (Bearer product token): their sign-in sessions, ending other ones.

export type SessionsOutcome =
  { kind: 'loaded'; sessions: AccountSession[] } | { kind: 'failed'; message: string };
export type EndOutcome = { ok: true; ended: number } | { ok: false; message: string };

const LIST_FAILED = 'We couldn’t load where you’re signed in just now. Please try again in a few minutes.';
const END_FAILED = 'We couldn’t sign that device out just now. Please try again in a few minutes.';

export async function getSessions(signal?: AbortSignal): Promise<SessionsOutcome> {
  const result = await sessionRequest(accountApiPaths.sessions, { signal });
  if (result.isError) return { kind: 'failed', message: describeFailure(result, LIST_FAILED).message };
  const parsed = AccountSessionListSchema.safeParse(result.data);
  return parsed.success
    ? { kind: 'loaded', sessions: parsed.data.sessions }
    : { kind: 'failed', message: LIST_FAILED };
}

const ALREADY_ENDED = 'That device was already signed out.';

async function end(path: string): Promise<EndOutcome> {
  const result = await sessionRequest(path, { method: 'POST', body: {} });
  if (result.isError) {
    // Ended meanwhile (elsewhere, or it expired): the list is out of date, not the borrower wrong.
    if (result.status === 404 && !result.exceptionThrown) return { ok: false, message: ALREADY_ENDED };
    return { ok: false, message: describeFailure(result, END_FAILED).message };
  }
  const parsed = EndedSessionsSchema.safeParse(result.data);
  return parsed.success ? { ok: true, ended: parsed.data.ended } : { ok: false, message: END_FAILED };
}

/** Signs out one other session of the borrower. */
export const endSession = (sessionId: string) => end(accountApiPaths.endSession.href({ sessionId }));

/** Signs out every session of the borrower but this one. */
export const endOtherSessions = () => end(accountApiPaths.endOtherSessions);
