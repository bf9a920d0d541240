import type { SecondFactor } from '@customer-core/contracts';
import { i18n as portalI18n, type I18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

// What the account page says about the borrower's second sign-in steps, from the steps they have:
// never that signing in takes a code while they have none. Said in the language of `i18n` (the
// page's, which is the portal's).

const has = (factors: SecondFactor[], type: SecondFactor['type']) =>
  factors.some((factor) => factor.type === type);

/** "a, b, and c" / "a, b y c": the language's own way of listing (CLDR's, through Intl). */
export function listed(items: string[], i18n: I18n = portalI18n): string {
  return new Intl.ListFormat(i18n.locale, { type: 'conjunction' }).format(items);
}

/** The two-step row's state, by whether there is an app and whether email codes. */
const WAYS: Record<`${boolean} ${boolean}`, MessageDescriptor> = {
  'false false': msg`None yet`,
  'true false': msg`Authenticator app`,
  'false true': msg`Email codes`,
  'true true': msg`Authenticator app and email codes`,
};

/** The two-step row's state: its app and email codes ("Authenticator app and email codes"), or "None yet". */
export function waysSummary(factors: SecondFactor[], i18n: I18n = portalI18n): string {
  return i18n._(WAYS[`${has(factors, 'authenticator_app')} ${has(factors, 'email_code')}`]);
}

/** What signing in takes, by whether there is an app, email codes and a passkey: whole sentences. */
const SECOND_STEPS: Record<`${boolean} ${boolean} ${boolean}`, MessageDescriptor> = {
  'false false false': msg`Add a second step to signing in: a code from an authenticator app or your email, after your password.`,
  'true false false': msg`Signing in takes your password and a code from your authenticator app.`,
  'false true false': msg`Signing in takes your password and a code from your email.`,
  'true true false': msg`Signing in takes your password and a code from your authenticator app or your email.`,
  'false false true': msg`Signing in takes your password and your passkey.`,
  'true false true': msg`Signing in takes your password and a code from your authenticator app or your passkey.`,
  'false true true': msg`Signing in takes your password and a code from your email or your passkey.`,
  'true true true': msg`Signing in takes your password and a code from your authenticator app or your email or your passkey.`,
};

/** What signing in takes now, passkeys included (a passkey is a second step after the password too). */
export function secondStepText(factors: SecondFactor[], i18n: I18n = portalI18n): string {
  const app = has(factors, 'authenticator_app');
  const email = has(factors, 'email_code');
  const passkey = has(factors, 'passkey');
  return i18n._(SECOND_STEPS[`${app} ${email} ${passkey}`]);
}
