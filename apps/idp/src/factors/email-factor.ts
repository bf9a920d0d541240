/** A code works for 5 minutes, once. */
export const EMAIL_CODE_TTL_SECONDS = 300;
/** At most this many codes per factor in a window: a resend button cannot flood a mailbox. */
export const EMAIL_CODE_MAX_SENDS = 5;
export const EMAIL_CODE_SEND_WINDOW_SECONDS = 900;

/** What the identity provider asks its host to mail: a code, to the user's login address. */
export interface FactorCodeMail {
  to: string;
  firstName: string;
  /** The user's locale as their profile keeps it, e.g. es_US: the language of the message. */
  locale: string;
  code: string;
  expiresInMinutes: number;
  /** `sign-in`: verifying a sign-in; `enrol`: confirming the address for a new e-mail factor. */
  purpose: 'sign-in' | 'enrol';
}

/** The host's way of sending mail (the portal's outbox); without one, e-mail factors are not offered. */
export type FactorCodeMailer = (mail: FactorCodeMail) => Promise<void>;

/** "d...n@example.com", as Okta shows the address a code went to. */
export function maskedEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return '...';
  const local = address.slice(0, at);
  return `${local[0]}...${local.length > 1 ? local[local.length - 1] : ''}${address.slice(at)}`;
}
