import { emailRenderer, oneLine, type MailBrand } from './render.js';

// The messages the portal sends. Wording: who sent it, why, what to do, and what to do if it was not
// you. A first name is the only thing a borrower typed that appears, and it is escaped like all text.

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
        footnote: `Didn't ask for this? You can safely ignore this e-mail; your password won't change. If you think someone else is trying to get into your account, call us at ${brand.supportPhone}.`,
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
          `Someone asked to sign in to your ${lender} account with this e-mail address. If it was you, follow the link below to sign in. No password is needed.`,
          `The link works once and expires in ${expiry}. Please don't forward this e-mail: anyone with the link can sign in as you.`,
        ],
        action: { label: 'Sign in', url: signInUrl },
        footnote: `Didn't ask for this? You can safely ignore this e-mail; nothing happens unless the link is used. If you keep getting these messages, call us at ${brand.supportPhone}.`,
      }),
    } satisfies TemplatedEmail;
  }

  return { absoluteUrl, renderEmail, passwordResetEmail, magicLinkEmail };
}

export type MailTemplates = ReturnType<typeof mailTemplates>;

/** 30 -> "30 minutes", 60 -> "1 hour", 1440 -> "24 hours". */
function duration(minutes: number): string {
  const whole = Math.max(1, Math.round(minutes));
  if (whole % 60 === 0) return whole === 60 ? '1 hour' : `${whole / 60} hours`;
  return whole === 1 ? '1 minute' : `${whole} minutes`;
}
