import { accountEndpoints, type Locale } from '@customer-core/contracts';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { describeFailure } from './api-failure';
import { sessionRequest } from './auth/session-request';

export type LanguageOutcome = { ok: true; locale: Locale } | { ok: false; message: string };

const LANGUAGE_NOT_SAVED = msg`We couldn’t save your language to your account just now. This browser will keep it.`;

/**
 * Keeps a signed-in borrower's language on their profile, so that the e-mails they get and their
 * other browsers follow it (a sign-in adopts the profile's language: i18n/language.ts).
 */
export async function saveProfileLanguage(locale: Locale): Promise<LanguageOutcome> {
  const result = await sessionRequest(accountEndpoints.setLanguage, { body: { locale } });
  if (result.isError)
    return { ok: false, message: describeFailure(result, i18n._(LANGUAGE_NOT_SAVED)).message };
  return { ok: true, locale: result.data.locale };
}
