import { z } from 'zod';
import { SIGNING_ERROR_CODES } from './api-errors.js';
import { endpoint } from './endpoint.js';
import { singleLineText } from './text.js';

// Electronic signatures, as an e-signature service does them: the borrower agrees once to do business
// electronically (the consent below, recorded with its version and time), then signs with their name
// as it is on their account. The API checks both; the portal checks the name first, with the same rule.

/** The consent to sign electronically (ESIGN Act): a new text gets a new version, and is agreed again. */
export const ESIGN_CONSENT = {
  version: 'esign-2026-11',
  title: 'Consent to sign electronically',
  text: [
    'You agree that we may give you your loan documents, and the notices about them, electronically, and that you sign them electronically. An electronic signature has the same legal effect as one on paper.',
    'You may ask us for a paper copy of any document at no charge. You may withdraw this consent at any time by calling us: withdrawing it does not change documents you have signed already, and you would then sign on paper.',
    'To receive and keep documents electronically you need a current web browser, an email address and a way to open and save PDF files. We will tell you if these requirements change.',
    'Keep a copy of this consent: you can download it from the page where you sign your documents, at any time.',
  ].join('\n\n'),
} as const;

/** The borrower's consent: the current text, and when they agreed to it (null: not yet). */
export const EsignConsentSchema = z.object({
  version: z.string(),
  title: z.string(),
  /** The text as the borrower agreed to it (or, before they do, as they will). */
  text: z.string(),
  givenAt: z.string().nullable(),
});
export type EsignConsent = z.infer<typeof EsignConsentSchema>;

export const GiveEsignConsentRequestSchema = z.object({
  /** The version of the text the borrower read: an older one is refused, so they read the new one. */
  version: singleLineText().max(40),
  agreed: z.literal(true, 'Confirm that you agree to sign electronically.'),
});
export type GiveEsignConsentRequest = z.infer<typeof GiveEsignConsentRequestSchema>;

/** The borrower's consent to sign electronically: read, given (once; again changes nothing). */
export const signingEndpoints = {
  esignConsent: endpoint({
    method: 'GET',
    path: '/api/borrower/esign-consent',
    tag: 'borrower',
    summary: 'The consent to sign electronically, and when the borrower gave it',
    access: 'borrower',
    responses: { 200: EsignConsentSchema },
  }),
  giveEsignConsent: endpoint({
    method: 'POST',
    path: '/api/borrower/esign-consent',
    tag: 'borrower',
    summary: 'Agree to sign electronically (the current text; again: no change)',
    access: 'borrower',
    body: GiveEsignConsentRequestSchema,
    responses: { 200: EsignConsentSchema },
    errors: { 409: [SIGNING_ERROR_CODES.consentOutdated] },
  }),
};

export const ESIGN_CONSENT_REQUIRED_MESSAGE = 'Agree to sign electronically first.';
export const ESIGN_CONSENT_OUTDATED_MESSAGE =
  'The consent to sign electronically has changed. Read it again, then agree.';
export const NO_ACCOUNT_NAME_MESSAGE =
  'Your account has no name on it to sign with. Call us and we’ll add it.';

/** The refusal of a signature that is not the account's name: says the name to type. */
export const signatureNameMismatchMessage = (accountName: string) =>
  `This isn’t the name on your account. Type your name as it is on your account: ${accountName}.`;

/** The account's name as a signature shows it: first and last, as the account has them. */
export function accountNameOf(account: { firstName: string | null; lastName: string | null }): string | null {
  const name = [account.firstName, account.lastName]
    .map((part) => part?.trim() ?? '')
    .filter(Boolean)
    .join(' ');
  return name || null;
}

/** A name's words, compared without case, accents, full stops or extra spaces. */
function wordsOf(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\u2018\u2019`]/g, "'")
    .replace(/\./g, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

/**
 * Whether a typed signature is the account's name, leniently: case, accents, spaces and full stops
 * do not count, and a middle name or initial may be added (one the account does not have), or the
 * account's own middle names given as initials or left out. The first and last names must be there.
 */
export function signatureNameMatches(
  typed: string,
  account: { firstName: string | null; lastName: string | null },
): boolean {
  const first = wordsOf(account.firstName ?? '');
  const last = wordsOf(account.lastName ?? '');
  const words = wordsOf(typed);
  const [given, ...accountMiddle] = first.length > 0 ? first : last.splice(0, 1);
  if (given === undefined || words[0] !== given) return false;
  if (words.length < 1 + last.length) return false;
  if (last.some((word, index) => words[words.length - last.length + index] !== word)) return false;
  // What comes between: the account's own middle names (or their initials), in order, any left out,
  // and at most one more middle name or initial.
  const between = words.slice(1, words.length - last.length);
  let next = 0;
  let added = 0;
  for (const word of between) {
    const at = accountMiddle.findIndex(
      (middle, index) => index >= next && (middle === word || (word.length === 1 && middle.startsWith(word))),
    );
    if (at >= 0) next = at + 1;
    else if (++added > 1) return false;
  }
  return true;
}
