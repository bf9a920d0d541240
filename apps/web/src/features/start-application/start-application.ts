import {
  applicationEndpoints,
  type StartApplication,
  type StartApplicationResponse,
} from '@customer-core/contracts';
import { apiClient } from '../../lib/api-client';
import { describeFailure } from '../../lib/api-failure';

export type StartApplicationOutcome =
  { kind: 'started'; application: StartApplicationResponse } | { kind: 'failed'; message: string };

const FAILED = 'We couldn’t send your application just now. Please try again in a few minutes.';

/** POST /api/applications: stores the application and e-mails the verification link. */
export async function startApplication(application: StartApplication): Promise<StartApplicationOutcome> {
  const result = await apiClient.call(applicationEndpoints.start, { body: application });
  if (!result.isError) return { kind: 'started', application: result.data };
  const failure = describeFailure(result, FAILED);
  // A 400 says what the API refused (the form checks the same schema, so this is rare), a 429 how long
  // to wait and whom to call: the API's own words then; anything else gets the banner's sentence.
  const ownWords = result.status === 400 || result.status === 429;
  return { kind: 'failed', message: (ownWords && failure.serverMessage) || failure.message };
}
