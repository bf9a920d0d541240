import { UNKNOWN_DEVICE } from '@customer-core/contracts';
import { factorMailTemplates } from './factor-templates.js';
import { emailRenderer, oneLine, type MailBrand } from './render.js';

// The messages the portal sends. Wording: who sent it, why, what to do, and what to do if it was not
// you. A first name (the borrower's, or the one an operator gave) is the only typed text that appears,
// and it is escaped like all text.

/** A message ready for enqueueMail: add `to` and an idempotency key. */
export interface TemplatedEmail {
  kind: string;
  subject: string;
  text: string;
  html: string;
}

export interface PasswordResetEmailInput {
  firstName?: string | null;
  /** A path (/auth/password-reset/…) or a URL on the portal's public origin. */
  resetUrl: string;
  expiresInMinutes: number;
}

export interface MagicLinkEmailInput {
  firstName?: string | null;
  /** A path or a URL on the portal's public origin. */
  signInUrl: string;
  expiresInMinutes: number;
}

export interface InvitationEmailInput {
  /** As the operator gave it. */
  firstName?: string | null;
  /** A path (/user-registration/…) or a URL on the portal's public origin. */
  registrationUrl: string;
  expiresInMinutes: number;
}

export interface EmailVerificationEmailInput {
  /** A path (/app/email-verification/…) or a URL on the portal's public origin. */
  verificationUrl: string;
  expiresInMinutes: number;
}

export interface SecondFactorChangedEmailInput {
  firstName?: string | null;
  /** Whether an authenticator app was added to the account or removed from it. */
  change: 'added' | 'removed';
  /** Which kind of factor; an authenticator app unless said. */
  factor?: 'authenticator_app' | 'passkey';
}

export interface PasswordChangedEmailInput {
  firstName?: string | null;
  /** Whether the borrower's other devices were signed out with the change. */
  otherSessionsEnded: boolean;
}

export interface EmailChangeLinkEmailInput {
  firstName?: string | null;
  /** A path (/ui/dashboard/account/email-change/…) or a URL on the portal's public origin. */
  confirmUrl: string;
  expiresInMinutes: number;
}

export interface NewSignInEmailInput {
  firstName?: string | null;
  /** Browser and operating system as parsed, e.g. "Chrome on Windows"; null when neither was recognised. */
  device: string | null;
  signedInAt: Date;
  /** The client's network (an IPv4 /24 or IPv6 /64); null when unknown. */
  approximateAddress: string | null;
  /** A path (/auth/unrecognized-sign-in/…) or a URL on the portal's public origin. */
  reportUrl: string;
  expiresInMinutes: number;
}

export interface EmailChangedEmailInput {
  firstName?: string | null;
}

export function mailTemplates(brand: MailBrand) {
  const { absoluteUrl, renderEmail } = emailRenderer(brand);
  const lender = brand.lenderName;
  const greeting = (firstName?: string | null) => {
    const name = firstName ? oneLine(firstName, 60) : '';
    return name ? `Hi ${name},` : 'Hello,';
  };

  function passwordResetEmail({ firstName, resetUrl, expiresInMinutes }: PasswordResetEmailInput) {
    const expiry = duration(expiresInMinutes);
    return {
      kind: 'password-reset',
      subject: `Reset your ${lender} password`,
      ...renderEmail({
        preheader: `Use this link within ${expiry} to choose a new password.`,
        heading: 'Reset your password',
        paragraphs: [
          greeting(firstName),
          `We received a request to reset the password for your ${lender} account. To choose a new password, follow the link below.`,
          `The link works once and expires in ${expiry}.`,
        ],
        action: { label: 'Choose a new password', url: resetUrl },
        footnote: `Didn’t ask for this? You can safely ignore this email; your password won’t change. If you think someone else is trying to get into your account, call us at ${brand.supportPhone}.`,
      }),
    } satisfies TemplatedEmail;
  }

  function magicLinkEmail({ firstName, signInUrl, expiresInMinutes }: MagicLinkEmailInput) {
    const expiry = duration(expiresInMinutes);
    return {
      kind: 'magic-link',
      subject: `Your ${lender} sign-in link`,
      ...renderEmail({
        preheader: `Sign in with one click. The link expires in ${expiry}.`,
        heading: 'Sign in to your account',
        paragraphs: [
          greeting(firstName),
          `Someone asked to sign in to your ${lender} account with this email address. If it was you, follow the link below to sign in. No password is needed.`,
          `The link works once and expires in ${expiry}. Please don’t forward this email: anyone with the link can sign in as you.`,
        ],
        action: { label: 'Sign in', url: signInUrl },
        footnote: `Didn’t ask for this? You can safely ignore this email; nothing happens unless the link is used. If you keep getting these messages, call us at ${brand.supportPhone}.`,
      }),
    } satisfies TemplatedEmail;
  }

  function invitationEmail({ firstName, registrationUrl, expiresInMinutes }: InvitationEmailInput) {
    const expiry = duration(expiresInMinutes);
    return {
      kind: 'invitation',
      subject: `Welcome to ${lender}: set up your online account`,
      ...renderEmail({
        preheader: `Choose a password to see your loans online. The link expires in ${expiry}.`,
        heading: `Welcome to ${lender}`,
        paragraphs: [
          greeting(firstName),
          `We’ve set up an online account for you at ${lender}. There you can see your loans, their balances and next payments, and review and sign your loan documents whenever it suits you.`,
          'To get started, follow the link below and choose a password. Your account will use this email address to sign in.',
          `The link works once and expires in ${expiry}. If it has expired, call us and we’ll send you a new one.`,
        ],
        action: { label: 'Set up my account', url: registrationUrl },
        footnote: `Weren’t expecting this? You can safely ignore this email: no account is created unless the link is used. If you think it reached you by mistake, call us at ${brand.supportPhone}.`,
      }),
    } satisfies TemplatedEmail;
  }

  // Sent to an address nobody has verified yet: it carries nothing the applicant typed, so the form
  // cannot be used to send someone else words of one's choosing under the lender's name.
  function emailVerificationEmail({ verificationUrl, expiresInMinutes }: EmailVerificationEmailInput) {
    const expiry = duration(expiresInMinutes);
    return {
      kind: 'email-verification',
      subject: `Confirm your email address for your ${lender} loan application`,
      ...renderEmail({
        preheader: `One click to continue your loan application. The link expires in ${expiry}.`,
        heading: 'Confirm your email address',
        paragraphs: [
          'Hello,',
          `Thank you for starting a loan application with ${lender}. To continue, please confirm that this email address is yours by following the link below.`,
          `The link expires in ${expiry}. Once your address is confirmed, we’ll be in touch about the next steps.`,
        ],
        action: { label: 'Confirm my email address', url: verificationUrl },
        footnote: `Didn’t start an application? Someone may have typed your address by mistake. You can safely ignore this email: the address is not confirmed unless the link is used.`,
      }),
    } satisfies TemplatedEmail;
  }

  // Carries no link: a message that says "not you?" and offers a button is what phishing looks like.
  function passwordChangedEmail({ firstName, otherSessionsEnded }: PasswordChangedEmailInput) {
    return {
      kind: 'password-changed',
      subject: `Your ${lender} password was changed`,
      ...renderEmail({
        preheader: 'Your password was changed from your account page.',
        heading: 'Your password was changed',
        paragraphs: [
          greeting(firstName),
          `The password for your ${lender} account was just changed from your account page. From now on, use the new password to sign in.`,
          otherSessionsEnded
            ? 'Your other devices were signed out. You’ll need to sign in on them again.'
            : 'Your other devices are still signed in.',
        ],
        footnote: `Didn’t change your password? Call us right away at ${brand.supportPhone} and we’ll secure your account.`,
      }),
    } satisfies TemplatedEmail;
  }

  function secondFactorChangedEmail({ firstName, change, factor }: SecondFactorChangedEmailInput) {
    if (factor === 'passkey') return passkeyChangedEmail({ firstName, change });
    const added = change === 'added';
    return {
      kind: `second-factor-${change}`,
      subject: added
        ? `An authenticator app was added to your ${lender} account`
        : `An authenticator app was removed from your ${lender} account`,
      ...renderEmail({
        preheader: added
          ? 'An authenticator app was added from your account page.'
          : 'An authenticator app was removed from your account page.',
        heading: added ? 'An authenticator app was added' : 'An authenticator app was removed',
        paragraphs: [
          greeting(firstName),
          added
            ? `An authenticator app was just added to your ${lender} account from your account page. From now on, you’ll enter a code from it each time you sign in.`
            : `An authenticator app was just removed from your ${lender} account from your account page. You’ll no longer be asked for a code from it when you sign in.`,
        ],
        footnote: `Didn’t make this change? Call us right away at ${brand.supportPhone} and we’ll secure your account.`,
      }),
    } satisfies TemplatedEmail;
  }

  function passkeyChangedEmail({ firstName, change }: SecondFactorChangedEmailInput) {
    const added = change === 'added';
    return {
      kind: `passkey-${change}`,
      subject: added
        ? `A passkey was added to your ${lender} account`
        : `A passkey was removed from your ${lender} account`,
      ...renderEmail({
        preheader: added
          ? 'A passkey was added from your account page.'
          : 'A passkey was removed from your account page.',
        heading: added ? 'A passkey was added' : 'A passkey was removed',
        paragraphs: [
          greeting(firstName),
          added
            ? `A passkey was just added to your ${lender} account from your account page. You can now use it to sign in, with or without your password.`
            : `A passkey was just removed from your ${lender} account from your account page. It can no longer be used to sign in.`,
        ],
        footnote: `Didn’t make this change? Call us right away at ${brand.supportPhone} and we’ll secure your account.`,
      }),
    } satisfies TemplatedEmail;
  }

  // To the new address: it shows neither address, so it tells a stranger nothing of the account.
  function emailChangeLinkEmail({ firstName, confirmUrl, expiresInMinutes }: EmailChangeLinkEmailInput) {
    const expiry = duration(expiresInMinutes);
    return {
      kind: 'email-change-link',
      subject: `Confirm your new ${lender} sign-in email`,
      ...renderEmail({
        preheader: `Use this link within ${expiry} to sign in with this address from now on.`,
        heading: 'Confirm your new email address',
        paragraphs: [
          greeting(firstName),
          `You asked to sign in to your ${lender} account with this email address. To make the change, follow the link below while you’re signed in.`,
          `The link works once and expires in ${expiry}. Until it’s used, nothing changes.`,
        ],
        action: { label: 'Confirm my new email address', url: confirmUrl },
        footnote: `Didn’t ask for this? You can safely ignore this email: nothing changes unless the link is used. If you keep getting these messages, call us at ${brand.supportPhone}.`,
      }),
    } satisfies TemplatedEmail;
  }

  // To the old address once the change is made: no link, only the way to reach the lender.
  function emailChangedEmail({ firstName }: EmailChangedEmailInput) {
    return {
      kind: 'email-changed',
      subject: `Your ${lender} sign-in email was changed`,
      ...renderEmail({
        preheader: 'Your account now signs in with another email address.',
        heading: 'Your sign-in email was changed',
        paragraphs: [
          greeting(firstName),
          `The email address you sign in to your ${lender} account with was just changed from your account page. We’ll send messages about your account to the new address from now on.`,
        ],
        footnote: `Didn’t change it? Call us right away at ${brand.supportPhone} and we’ll secure your account.`,
      }),
    } satisfies TemplatedEmail;
  }

  // The one security notice with a link: the issue of it is to let the borrower act at once. The link
  // only ends sessions and leads to choosing a password, so a forged copy of this mail gains nothing.
  function newSignInEmail(input: NewSignInEmailInput) {
    const when = `${SIGN_IN_TIME.format(input.signedInAt)} UTC`;
    const details = [
      `Device: ${input.device ? oneLine(input.device, 80) : UNKNOWN_DEVICE}`,
      `When: ${when}`,
      `Approximate network: ${input.approximateAddress ?? 'Unknown'}`,
    ];
    return {
      kind: 'new-sign-in',
      subject: `New sign-in to your ${lender} account`,
      ...renderEmail({
        preheader: `Your account was signed in to from a device it hasn’t been used on before.`,
        heading: 'New sign-in to your account',
        paragraphs: [
          greeting(input.firstName),
          `Your ${lender} account was just signed in to from a device it hasn’t been used on before.`,
          ...details,
          'If this was you, you don’t need to do anything.',
          `If it wasn’t you, use the link below. It signs your account out on every device and lets you choose a new password. It works once, for ${duration(input.expiresInMinutes)}.`,
        ],
        action: { label: 'This wasn’t me', url: input.reportUrl },
        footnote: `Questions about your account? Call us at ${brand.supportPhone}.`,
      }),
    } satisfies TemplatedEmail;
  }

  // To the owner of an address someone asked to move their own account to: the asker is told nothing.
  function emailInUseEmail() {
    return {
      kind: 'email-in-use',
      subject: `Someone tried to use your email address at ${lender}`,
      ...renderEmail({
        preheader: 'Another account asked to sign in with this address. Nothing was changed.',
        heading: 'Your email address is already in use',
        paragraphs: [
          'Hello,',
          `Someone signed in to another ${lender} account asked to sign in with this email address from now on. It already belongs to your account, so nothing was changed.`,
        ],
        footnote: `You don’t need to do anything. If you think someone is trying to get into your account, call us at ${brand.supportPhone}.`,
      }),
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
    secondFactorChangedEmail,
    emailChangeLinkEmail,
    emailChangedEmail,
    emailInUseEmail,
    newSignInEmail,
    ...factorMailTemplates(brand),
  };
}

export type MailTemplates = ReturnType<typeof mailTemplates>;

/** 30 -> "30 minutes", 60 -> "1 hour", 1440 -> "24 hours", 4320 -> "3 days". */
const SIGN_IN_TIME = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'full',
  timeStyle: 'short',
  timeZone: 'UTC',
});

function duration(minutes: number): string {
  const whole = Math.max(1, Math.round(minutes));
  const day = 24 * 60;
  if (whole % day === 0 && whole >= 2 * day) return `${whole / day} days`;
  if (whole % 60 === 0) return whole === 60 ? '1 hour' : `${whole / 60} hours`;
  return whole === 1 ? '1 minute' : `${whole} minutes`;
}
