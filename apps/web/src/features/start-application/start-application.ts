import { msg } from '@lingui/core/macro';
import { i18n } from '@lingui/core';
import {
  applicationEndpoints,
  type BorrowerApplicationRequest,
  type StartApplication,
  type StartApplicationResponse,
} from '@customer-core/contracts';
import { apiClient, type ApiFailure } from '../../lib/api-client';
import { describeFailure } from '../../lib/api-failure';
import { sessionRequest } from '../../lib/auth/session-request';

export type StartApplicationOutcome =
  { kind: 'started'; application: StartApplicationResponse } | { kind: 'failed'; message: string };

const FAILED = msg`We couldn’t send your application just now. Please try again in a few minutes.`;

/** POST /api/applications: stores the application and e-mails the verification link. */
export async function startApplication(application: StartApplication): Promise<StartApplicationOutcome> {
  const result = await apiClient.call(applicationEndpoints.start, { body: application });
  if (!result.isError) return { kind: 'started', application: result.data };
  return { kind: 'failed', message: refusal(result) };
}

/** A refusal in words: a 400 says what the API refused (the form checks the same schema, so this is
 * rare), a 429 how long to wait and whom to call; anything else gets the banner's sentence. */
function refusal(result: ApiFailure): string {
  const failure = describeFailure(result, i18n._(FAILED));
  const ownWords = result.status === 400 || result.status === 429;
  return (ownWords && failure.serverMessage) || failure.message;
}

/** POST /api/borrower/applications: the signed-in borrower's application (nothing to verify). */
export async function submitAsBorrower(
  application: BorrowerApplicationRequest,
): Promise<{ kind: 'sent' } | { kind: 'failed'; message: string }> {
  const result = await sessionRequest(applicationEndpoints.submitAsBorrower, { body: application });
  return result.isError ? { kind: 'failed', message: refusal(result) } : { kind: 'sent' };
}
