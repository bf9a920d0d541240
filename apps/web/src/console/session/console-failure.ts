import type { ApiErrorCode } from '@customer-core/contracts';
import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ApiFailure } from '../../lib/api-client';
import { describeFailure } from '../../lib/api-failure';

/** A console call that did not succeed, and what the screen says of it. */
export interface ConsoleFailure {
  status: number;
  /** The API's error code, when it answered one. */
  code: ApiErrorCode | null;
  /** What to show: the API's own words for a refusal (a 4xx), else the console's sentence for it. */
  message: string;
  /**
   * Nothing to show: the staff member backed out of confirming it's them (nothing was done), or the
   * console session is over (the console is on its way to its sign-in screen, which says so).
   */
  quiet: boolean;
}

const UNREACHABLE = msg`We couldn’t reach the server. Check your connection, then try again.`;
const TOO_MANY = msg`Too many requests just now. Wait a minute, then try again.`;
const FORBIDDEN = msg`Your role doesn’t allow this.`;
const SERVER_FAULT = msg`Something went wrong on our side. Try again in a few minutes.`;

/**
 * What a failed call means for staff. `fallback` is the screen's own sentence for a refusal the API
 * gave no words for (a 404 "not found"), and for an unexpected answer.
 */
export function describeConsoleFailure(result: ApiFailure, fallback?: MessageDescriptor): ConsoleFailure {
  const failure = describeFailure(result, '');
  const own = fallback && i18n._(fallback);
  let message: string;
  if (result.exceptionThrown) message = i18n._(UNREACHABLE);
  else if (result.status === 429) message = i18n._(TOO_MANY);
  else if (result.status === 403 && failure.code === 'forbidden') message = i18n._(FORBIDDEN);
  else if (result.status >= 500) message = own ?? i18n._(SERVER_FAULT);
  else message = failure.serverMessage ?? own ?? i18n._(SERVER_FAULT);
  return { status: result.status, code: failure.code, message, quiet: false };
}

/** A failure with nothing to say (see ConsoleFailure.quiet). */
export const quietFailure = (status: number, code: ApiErrorCode | null = null): ConsoleFailure => ({
  status,
  code,
  message: '',
  quiet: true,
});
