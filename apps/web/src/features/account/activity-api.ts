import { activityEndpoints, type SecurityActivityPage } from '@customer-core/contracts';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { describeFailure } from '../../lib/api-failure';
import { sessionRequest } from '../../lib/auth/session-request';

// The borrower's security activity, a page at a time (Bearer product token).

export type ActivityOutcome =
  ({ kind: 'loaded' } & SecurityActivityPage) | { kind: 'failed'; message: string };

const LOAD_FAILED = msg`We couldn’t load your security activity just now. Please try again in a few minutes.`;

/** The newest page, or the one after `after` (a page's `next`). */
export async function getActivity(after: string | null, signal?: AbortSignal): Promise<ActivityOutcome> {
  const result = await sessionRequest(activityEndpoints.account, {
    query: { after: after ?? undefined },
    signal,
  });
  if (result.isError)
    return { kind: 'failed', message: describeFailure(result, i18n._(LOAD_FAILED)).message };
  return { kind: 'loaded', ...result.data };
}
