import { DEFAULT_LOCALE, type Locale } from '@customer-core/contracts';
import { emailRenderer, oneLine, type MailBrand } from './render.js';
import { minutesIn, wordsOf } from './words/index.js';

/** templates.ts's TemplatedEmail, named here too: that file spreads these templates into its own. */
interface TemplatedEmail {
  kind: string;
  subject: string;
  text: string;
  html: string;
}

// The messages of email codes and recovery codes: a code to sign in or to confirm the address, and
// the notices of a change made from the account page.

export interface FactorCodeEmailInput {
  firstName?: string | null;
  /** The recipient's language (their profile's locale); English unless given. */
  locale?: Locale;
  code: string;
  expiresInMinutes: number;
  /**
   * `sign-in`: the second step of a sign-in; `enrol`: turning email codes on; `step-up`: confirming
   * it's them before a sensitive action (signing a document, changing the sign-in address).
   */
  purpose: 'sign-in' | 'enrol' | 'step-up';
}

export interface FactorNoticeEmailInput {
  firstName?: string | null;
  /** The recipient's language (their profile's locale); English unless given. */
  locale?: Locale;
  change: 'email-codes-added' | 'email-codes-removed' | 'recovery-codes-generated';
}

export function factorMailTemplates(brand: MailBrand) {
  const { renderEmail } = emailRenderer(brand);
  const words = { lender: brand.lenderName, phone: brand.supportPhone };
  const greeting = (locale: Locale | undefined, firstName?: string | null) => {
    const name = firstName ? oneLine(firstName, 60) : '';
    return name ? wordsOf(locale).greeting(name) : wordsOf(locale).hello;
  };

  /** The code itself is the message: in the subject too, so a phone's notification shows it. */
  function factorCodeEmail({ firstName, code, expiresInMinutes, purpose, locale }: FactorCodeEmailInput) {
    if (purpose === 'step-up') return stepUpCodeEmail({ firstName, code, expiresInMinutes, locale });
    const { subject, paragraphs, ...content } = wordsOf(locale).factorCode({
      ...words,
      code,
      expiry: minutesIn(locale ?? DEFAULT_LOCALE, expiresInMinutes),
      purpose,
    });
    return {
      kind: purpose === 'sign-in' ? 'factor-code-sign-in' : 'factor-code-enrol',
      subject,
      ...renderEmail({ ...content, paragraphs: [greeting(locale, firstName), ...paragraphs], locale }),
    } satisfies TemplatedEmail;
  }

  function stepUpCodeEmail({
    firstName,
    code,
    expiresInMinutes,
    locale,
  }: Omit<FactorCodeEmailInput, 'purpose'>) {
    const { subject, paragraphs, ...content } = wordsOf(locale).stepUpCode({
      ...words,
      code,
      expiry: minutesIn(locale ?? DEFAULT_LOCALE, expiresInMinutes),
    });
    return {
      kind: 'factor-code-step-up',
      subject,
      ...renderEmail({ ...content, paragraphs: [greeting(locale, firstName), ...paragraphs], locale }),
    } satisfies TemplatedEmail;
  }

  function factorNoticeEmail({ firstName, change, locale }: FactorNoticeEmailInput) {
    const { subject, paragraphs, ...content } = wordsOf(locale).factorNotice({ ...words, change });
    return {
      kind: change,
      subject,
      ...renderEmail({ ...content, paragraphs: [greeting(locale, firstName), ...paragraphs], locale }),
    } satisfies TemplatedEmail;
  }

  return { factorCodeEmail, factorNoticeEmail };
}
