import type { Locale } from './locale.js';

// The debit authorization a borrower accepts, written once here: the portal shows it, and the API
// writes the same words again from the same facts and keeps them with their SHA-256, which the portal
// sends with the acceptance. A page showing other words (an older version, other figures) is refused.

/** Which authorization: one debit, or autopay's standing one for the loan's instalments. */
export type AuthorizationTerms =
  { kind: 'one_time'; amountCents: number; effectiveOn: string } | { kind: 'autopay'; loanReference: string };

export interface AuthorizationFacts {
  locale: Locale;
  holderName: string;
  bankName: string | null;
  last4: string;
  lenderName: string;
  supportPhone: string;
  terms: AuthorizationTerms;
}

/** Kept with each accepted authorization: a new version of the words is a new number. */
export const AUTHORIZATION_VERSION = 1;

/** An amount as the authorization and the payment e-mails write it: $2,361.11, 2361,11 US$… */
export const paymentAmount = (locale: Locale, cents: number) =>
  new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(cents / 100);

/** A payment's day as they write it: November 30, 2026, 30 de noviembre de 2026. */
export const paymentDay = (locale: Locale, isoDay: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${isoDay}T00:00:00Z`),
  );

export function paymentAuthorizationText(facts: AuthorizationFacts): string {
  const { locale, holderName, last4, lenderName, supportPhone, terms } = facts;
  if (locale === 'es-US') {
    const account = `la cuenta ••${last4}${facts.bankName ? ` en ${facts.bankName}` : ''}`;
    const what =
      terms.kind === 'one_time'
        ? `a debitarla una vez por ${paymentAmount(locale, terms.amountCents)} el ${paymentDay(locale, terms.effectiveOn)}`
        : `a debitarla por cada cuota programada del préstamo ${terms.loanReference} en su fecha de vencimiento o el siguiente día hábil bancario`;
    const until =
      terms.kind === 'one_time'
        ? 'Puede cancelar este pago aquí antes de su hora límite'
        : 'Esta autorización dura hasta que desactive el pago automático aquí antes de la hora límite de un pago';
    return (
      `Usted confirma que puede actuar en nombre de ${holderName} y que ${account} es una cuenta de empresa. ` +
      `Autoriza a ${lenderName} ${what}, y a acreditarla para corregir un error. ` +
      `${until}, o avisándonos al ${supportPhone}. Los pagos siguen las Nacha Operating Rules.`
    );
  }
  const account = `account ••${last4}${facts.bankName ? ` at ${facts.bankName}` : ''}`;
  const what =
    terms.kind === 'one_time'
      ? `once for ${paymentAmount(locale, terms.amountCents)} on ${paymentDay(locale, terms.effectiveOn)}`
      : `for each scheduled instalment of loan ${terms.loanReference} on its due date or the next banking day`;
  const until =
    terms.kind === 'one_time'
      ? 'You can cancel this payment here before its cut-off'
      : 'This lasts until you turn autopay off here before a payment’s cut-off';
  return (
    `You confirm you can act for ${holderName} and that ${account} is a business account. ` +
    `You authorize ${lenderName} to debit it ${what}, and to credit it to correct an error. ` +
    `${until}, or by telling us at ${supportPhone}. Payments follow the Nacha Operating Rules.`
  );
}
