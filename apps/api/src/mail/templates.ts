import { DEFAULT_LOCALE, type Locale } from '@customer-core/contracts';
import { factorMailTemplates } from './factor-templates.js';
import { emailRenderer, oneLine, type MailBrand } from './render.js';
import { durationIn, wordsOf } from './words/index.js';

// The messages the portal sends, in the recipient's language: their words are in words/, one object
// per language. A first name (the borrower's, or the one an operator gave) is the only typed text that
// appears, and it is escaped like all text.

/** A message ready for enqueueMail: add `to` and an idempotency key. */
export interface TemplatedEmail {
  kind: string;
  subject: string;
  text: string;
  html: string;
}

/** Every message's language: the recipient's (their profile's locale); English unless given. */
export interface Localized {
  locale?: Locale;
}

export interface PasswordResetEmailInput extends Localized {
  firstName?: string | null;
  /** A path (/auth/password-reset/…) or a URL on the portal's public origin. */
  resetUrl: string;
  expiresInMinutes: number;
}

export interface MagicLinkEmailInput extends Localized {
  firstName?: string | null;
  /** A path or a URL on the portal's public origin. */
  signInUrl: string;
  expiresInMinutes: number;
}

export interface InvitationEmailInput extends Localized {
  /** As the operator gave it. */
  firstName?: string | null;
  /** A path (/user-registration/…) or a URL on the portal's public origin. */
  registrationUrl: string;
  expiresInMinutes: number;
}

export interface EmailVerificationEmailInput extends Localized {
  /** A path (/app/email-verification/…) or a URL on the portal's public origin. */
  verificationUrl: string;
  expiresInMinutes: number;
}

export interface SecondFactorChangedEmailInput extends Localized {
  firstName?: string | null;
  /** Whether an authenticator app was added to the account or removed from it. */
  change: 'added' | 'removed';
  /** Which kind of factor; an authenticator app unless said. */
  factor?: 'authenticator_app' | 'passkey';
}

export interface PasswordChangedEmailInput extends Localized {
  firstName?: string | null;
  /** Whether the borrower's other devices were signed out with the change. */
  otherSessionsEnded: boolean;
}

export interface EmailChangeLinkEmailInput extends Localized {
  firstName?: string | null;
  /** A path (/ui/dashboard/account/email-change/…) or a URL on the portal's public origin. */
  confirmUrl: string;
  expiresInMinutes: number;
}

export interface NewSignInEmailInput extends Localized {
  firstName?: string | null;
  /**
   * Browser and operating system as parsed, e.g. "Chrome on Windows" (see deviceIn for the words in
   * the message's language); null when neither was recognised.
   */
  device: string | null;
  signedInAt: Date;
  /** The client's network (an IPv4 /24 or IPv6 /64); null when unknown. */
  approximateAddress: string | null;
  /** A path (/auth/unrecognized-sign-in/…) or a URL on the portal's public origin. */
  reportUrl: string;
  expiresInMinutes: number;
}

export interface EmailChangedEmailInput extends Localized {
  firstName?: string | null;
}

export function mailTemplates(brand: MailBrand) {
  const { absoluteUrl, renderEmail } = emailRenderer(brand);
  const words = { lender: brand.lenderName, phone: brand.supportPhone };
  const greeting = (locale: Locale | undefined, firstName?: string | null) => {
    const name = firstName ? oneLine(firstName, 60) : '';
    return name ? wordsOf(locale).greeting(name) : wordsOf(locale).hello;
  };
  const expiry = (locale: Locale | undefined, minutes: number) => ({
    expiry: durationIn(locale ?? DEFAULT_LOCALE, minutes),
  });

  function passwordResetEmail({ firstName, resetUrl, expiresInMinutes, locale }: PasswordResetEmailInput) {
    const { subject, paragraphs, action, ...content } = wordsOf(locale).passwordReset({
      ...words,
      ...expiry(locale, expiresInMinutes),
    });
    return {
      kind: 'password-reset',
      subject,
      ...renderEmail({
        ...content,
        paragraphs: [greeting(locale, firstName), ...paragraphs],
        action: { label: action, url: resetUrl },
        locale,
      }),
    } satisfies TemplatedEmail;
  }

  function magicLinkEmail({ firstName, signInUrl, expiresInMinutes, locale }: MagicLinkEmailInput) {
    const { subject, paragraphs, action, ...content } = wordsOf(locale).magicLink({
      ...words,
      ...expiry(locale, expiresInMinutes),
    });
    return {
      kind: 'magic-link',
      subject,
      ...renderEmail({
        ...content,
        paragraphs: [greeting(locale, firstName), ...paragraphs],
        action: { label: action, url: signInUrl },
        locale,
      }),
    } satisfies TemplatedEmail;
  }

  /** In the language the operator chose (English unless they did). */
  function invitationEmail({ firstName, registrationUrl, expiresInMinutes, locale }: InvitationEmailInput) {
    const { subject, paragraphs, action, ...content } = wordsOf(locale).invitation({
      ...words,
      ...expiry(locale, expiresInMinutes),
    });
    return {
      kind: 'invitation',
      subject,
      ...renderEmail({
        ...content,
        paragraphs: [greeting(locale, firstName), ...paragraphs],
        action: { label: action, url: registrationUrl },
        locale,
      }),
    } satisfies TemplatedEmail;
  }

  // Sent to an address nobody has verified yet: it carries nothing the applicant typed, so the form
  // cannot be used to send someone else words of one's choosing under the lender's name.
  function emailVerificationEmail({
    verificationUrl,
    expiresInMinutes,
    locale,
  }: EmailVerificationEmailInput) {
    const { subject, paragraphs, action, ...content } = wordsOf(locale).emailVerification({
      ...words,
      ...expiry(locale, expiresInMinutes),
    });
    return {
      kind: 'email-verification',
      subject,
      ...renderEmail({
        ...content,
        paragraphs: [wordsOf(locale).hello, ...paragraphs],
        action: { label: action, url: verificationUrl },
        locale,
      }),
    } satisfies TemplatedEmail;
  }

  // Carries no link: a message that says "not you?" and offers a button is what phishing looks like.
  function passwordChangedEmail({ firstName, otherSessionsEnded, locale }: PasswordChangedEmailInput) {
    const { subject, paragraphs, ...content } = wordsOf(locale).passwordChanged({
      ...words,
      otherSessionsEnded,
    });
    return {
      kind: 'password-changed',
      subject,
      ...renderEmail({ ...content, paragraphs: [greeting(locale, firstName), ...paragraphs], locale }),
    } satisfies TemplatedEmail;
  }

  // No link either: the borrower is told what support did, and whom to call if it was not their asking.
  function factorsResetEmail({ firstName, locale }: Localized & { firstName?: string | null }) {
    const { subject, paragraphs, ...content } = wordsOf(locale).factorsReset(words);
    return {
      kind: 'factors-reset',
      subject,
      ...renderEmail({ ...content, paragraphs: [greeting(locale, firstName), ...paragraphs], locale }),
    } satisfies TemplatedEmail;
  }

  function secondFactorChangedEmail({ firstName, change, factor, locale }: SecondFactorChangedEmailInput) {
    const passkey = factor === 'passkey';
    const said = passkey ? wordsOf(locale).passkeyChanged : wordsOf(locale).authenticatorAppChanged;
    const { subject, paragraphs, ...content } = said({ ...words, change });
    return {
      kind: passkey ? `passkey-${change}` : `second-factor-${change}`,
      subject,
      ...renderEmail({ ...content, paragraphs: [greeting(locale, firstName), ...paragraphs], locale }),
    } satisfies TemplatedEmail;
  }

  // To the new address: it shows neither address, so it tells a stranger nothing of the account.
  function emailChangeLinkEmail({
    firstName,
    confirmUrl,
    expiresInMinutes,
    locale,
  }: EmailChangeLinkEmailInput) {
    const { subject, paragraphs, action, ...content } = wordsOf(locale).emailChangeLink({
      ...words,
      ...expiry(locale, expiresInMinutes),
    });
    return {
      kind: 'email-change-link',
      subject,
      ...renderEmail({
        ...content,
        paragraphs: [greeting(locale, firstName), ...paragraphs],
        action: { label: action, url: confirmUrl },
        locale,
      }),
    } satisfies TemplatedEmail;
  }

  // To the old address once the change is made: no link, only the way to reach the lender.
  function emailChangedEmail({ firstName, locale }: EmailChangedEmailInput) {
    const { subject, paragraphs, ...content } = wordsOf(locale).emailChanged(words);
    return {
      kind: 'email-changed',
      subject,
      ...renderEmail({ ...content, paragraphs: [greeting(locale, firstName), ...paragraphs], locale }),
    } satisfies TemplatedEmail;
  }

  // The one security notice with a link: the issue of it is to let the borrower act at once. The link
  // only ends sessions and leads to choosing a password, so a forged copy of this mail gains nothing.
  function newSignInEmail(input: NewSignInEmailInput) {
    const { locale } = input;
    const { subject, paragraphs, action, ...content } = wordsOf(locale).newSignIn({
      ...words,
      ...expiry(locale, input.expiresInMinutes),
      device: input.device ? oneLine(input.device, 80) : null,
      when: `${signInTime(locale).format(input.signedInAt)} UTC`,
      network: input.approximateAddress,
    });
    return {
      kind: 'new-sign-in',
      subject,
      ...renderEmail({
        ...content,
        paragraphs: [greeting(locale, input.firstName), ...paragraphs],
        action: { label: action, url: input.reportUrl },
        locale,
      }),
    } satisfies TemplatedEmail;
  }

  // To the owner of an address someone asked to move their own account to: the asker is told nothing.
  function emailInUseEmail({ locale }: Localized = {}) {
    const { subject, paragraphs, ...content } = wordsOf(locale).emailInUse(words);
    return {
      kind: 'email-in-use',
      subject,
      ...renderEmail({ ...content, paragraphs: [wordsOf(locale).hello, ...paragraphs], locale }),
    } satisfies TemplatedEmail;
  }

  return {
    absoluteUrl,
    renderEmail,
    passwordResetEmail,
    magicLinkEmail,
    invitationEmail,
    emailVerificationEmail,
    passwordChangedEmail,
    factorsResetEmail,
    secondFactorChangedEmail,
    emailChangeLinkEmail,
    emailChangedEmail,
    emailInUseEmail,
    newSignInEmail,
    ...factorMailTemplates(brand),
  };
}

export type MailTemplates = ReturnType<typeof mailTemplates>;

/** When a new sign-in happened, in the message's language: "Wednesday, March 4, 2026 at 5:06 AM". */
const SIGN_IN_TIMES = new Map<Locale, Intl.DateTimeFormat>();
function signInTime(locale: Locale = DEFAULT_LOCALE): Intl.DateTimeFormat {
  let format = SIGN_IN_TIMES.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'short', timeZone: 'UTC' });
    SIGN_IN_TIMES.set(locale, format);
  }
  return format;
}

/** A device (deviceParts), in the message's language ("Chrome en Windows"). */
export function deviceIn(locale: Locale, browser: string | null, system: string | null): string | null {
  if (browser && system) return wordsOf(locale).deviceOn(browser, system);
  return browser ?? system;
}
