import { ApiErrorSchema, STEP_UP_REQUIRED, type ApiErrorCode } from '@customer-core/contracts';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { inPortalLanguage } from '../i18n/in-portal-language';
import type { ApiFailure } from './api-client';

// What a failed call means for the borrower: a human sentence, never a status code or a stack.

export interface DescribedFailure {
  /** The API's error code (e.g. 'invalid_link') when it answered one. */
  code: ApiErrorCode | null;
  /** The API's own message for a 4xx answer, written for people, when it gave one (in the portal's language). */
  serverMessage: string | null;
  /** What to show in the banner. */
  message: string;
}

export const OFFLINE_MESSAGE = msg`We couldn’t reach our server. Check your internet connection, then try again.`;
export const TOO_MANY_MESSAGE = msg`Too many attempts in a short time. Please wait a minute, then try again.`;
// Room for an identity provider's password requirements; longer is not a message for people.
const MAX_SERVER_MESSAGE_LENGTH = 400;

function parseApiError(responseText: string) {
  try {
    const parsed = ApiErrorSchema.safeParse(JSON.parse(responseText));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** `fallback` is the screen's own sentence for anything else (a server fault, an unexpected answer). */
export function describeFailure(result: ApiFailure, fallback: string): DescribedFailure {
  const body = result.exceptionThrown ? null : parseApiError(result.responseText);
  const message = body?.message.trim() ?? '';
  const serverMessage =
    result.status >= 400 && result.status < 500 && message && message.length <= MAX_SERVER_MESSAGE_LENGTH
      ? inPortalLanguage(message)
      : null;
  return {
    code: body?.error ?? null,
    serverMessage,
    message: result.exceptionThrown
      ? i18n._(OFFLINE_MESSAGE)
      : result.status === 429
        ? i18n._(TOO_MANY_MESSAGE)
        : fallback,
  };
}

/**
 * The API's message for the step-up dialog when it asks for a recent sign-in (changing the email,
 * adding a way to sign in, signing): the borrower confirms it's them, then the same request is made again.
 */
export function stepUpMessageOf(failure: DescribedFailure): string | undefined {
  return failure.code === STEP_UP_REQUIRED ? (failure.serverMessage ?? undefined) : undefined;
}
