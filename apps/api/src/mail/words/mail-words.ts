import type { Locale } from '@customer-core/contracts';

// The words of every message the portal sends, one object per language (en-US.ts, es-US.ts), each
// `satisfies MailWords`: a message missing in one language fails the build. Numbers and dates come
// from Intl in the message's language; plurals from Intl.PluralRules (see durations below).

/** What every message's words are given: the lender's name and support number. */
export interface Brand {
  lender: string;
  phone: string;
}

/** What a message says besides its greeting, button URL and layout. */
export interface MessageWords {
  subject: string;
  preheader: string;
  heading: string;
  paragraphs: string[];
  footnote: string;
}

/** A message with one thing to do: the button's label. */
export interface ActionWords extends MessageWords {
  action: string;
}

/** Expiry words: "30 minutes", "1 hour", "3 days" in the message's language. */
export interface Expiry {
  expiry: string;
}

export type SecurityChange = 'added' | 'removed';

export interface MailWords {
  /** The <html lang> of the HTML part. */
  lang: Locale;
  /** The greeting of a message to someone named ("Hi Ada,"); `hello` when there is no name. */
  greeting(name: string): string;
  hello: string;
  /** The unit words of a duration, by plural category (Intl.PluralRules of the language). */
  units: Record<'minute' | 'hour' | 'day', Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }>;
  layout: {
    /** Under the button, before the bare link. */
    buttonFallback: string;
    /** "Sent by {lender} from {host}." around the two. */
    sentBy: { before: string; between: string; after: string };
    questions(phone: string): string;
    neverAsk: string;
  };
  passwordReset(words: Brand & Expiry): ActionWords;
  magicLink(words: Brand & Expiry): ActionWords;
  invitation(words: Brand & Expiry): ActionWords;
  emailVerification(words: Brand & Expiry): ActionWords;
  passwordChanged(words: Brand & { otherSessionsEnded: boolean }): MessageWords;
  /** Support removed every second step of the borrower's sign-in, at their request. */
  factorsReset(words: Brand): MessageWords;
  authenticatorAppChanged(words: Brand & { change: SecurityChange }): MessageWords;
  passkeyChanged(words: Brand & { change: SecurityChange }): MessageWords;
  emailChangeLink(words: Brand & Expiry): ActionWords;
  emailChanged(words: Brand): MessageWords;
  newSignIn(
    words: Brand &
      Expiry & {
        /** Null: neither browser nor system was recognised. */
        device: string | null;
        when: string;
        network: string | null;
      },
  ): ActionWords;
  /** Joins a browser and a system: "Chrome on Windows". */
  deviceOn(browser: string, system: string): string;
  emailInUse(words: Brand): MessageWords;
  factorCode(words: Brand & { code: string; expiry: string; purpose: 'sign-in' | 'enrol' }): MessageWords;
  stepUpCode(words: Brand & { code: string; expiry: string }): MessageWords;
  factorNotice(
    words: Brand & { change: 'email-codes-added' | 'email-codes-removed' | 'recovery-codes-generated' },
  ): MessageWords;
}
