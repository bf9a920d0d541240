import {
  MAX_AMOUNT_REQUESTED,
  MAX_PASSKEY_NAME_LENGTH,
  MAX_PASSWORD_LENGTH,
  MIN_AMOUNT_REQUESTED,
  MIN_PASSWORD_LENGTH,
  PASSWORD_SYMBOLS,
  signatureNameMismatchMessage,
  wholeDollars,
} from '@customer-core/contracts';
import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

// The words the portal shows that are written once, in English, outside it: the shared schemas'
// validation messages and labels (packages/contracts), and the API's messages for people (an error's
// `message`). The API speaks English to every caller; the portal shows each of these in the
// borrower's language through this table, keyed by the English text. A text not in it (a hosted
// identity provider's own password rules) is shown as it came. The component tests check that every
// entry's English is still the text it stands for, there.

const smallest = wholeDollars(MIN_AMOUNT_REQUESTED);
const largest = wholeDollars(MAX_AMOUNT_REQUESTED);

export const SHARED_MESSAGES: ReadonlyMap<string, MessageDescriptor> = new Map([
  ['Agree to sign electronically first.', msg`Agree to sign electronically first.`],
  ['An uppercase and a lowercase letter', msg`An uppercase and a lowercase letter`],
  ['Business name is required.', msg`Business name is required.`],
  ['Business name must be at most 200 characters.', msg`Business name must be at most 200 characters.`],
  ['Choose the documents to sign.', msg`Choose the documents to sign.`],
  ['Choose what the loan is for.', msg`Choose what the loan is for.`],
  ['Confirm that you agree to sign electronically.', msg`Confirm that you agree to sign electronically.`],
  [
    'Confirm that you have read and agree to the document.',
    msg`Confirm that you have read and agree to the document.`,
  ],
  [
    'Confirm that you have read and agree to the documents.',
    msg`Confirm that you have read and agree to the documents.`,
  ],
  ['Consent to sign electronically', msg`Consent to sign electronically`],
  ['Each document once.', msg`Each document once.`],
  [
    'Email codes aren’t offered for your account. Use an authenticator app instead.',
    msg`Email codes aren’t offered for your account. Use an authenticator app instead.`,
  ],
  ['Email is required.', msg`Email is required.`],
  ['Enter a whole dollar amount.', msg`Enter a whole dollar amount.`],
  ['Enter the 6-digit code.', msg`Enter the 6-digit code.`],
  ['Enter the amount you need.', msg`Enter the amount you need.`],
  ['Enter your current password.', msg`Enter your current password.`],
  [
    'If an account exists for that email, we sent a link.',
    msg`If an account exists for that email, we sent a link.`,
  ],
  ['Invalid email address.', msg`Invalid email address.`],
  [
    'Keep a copy of this consent: you can download it from the page where you sign your documents, at any time.',
    msg`Keep a copy of this consent: you can download it from the page where you sign your documents, at any time.`,
  ],
  ['No active session of yours has that id.', msg`No active session of yours has that id.`],
  ['No document of yours has that id.', msg`No document of yours has that id.`],
  ['No loan of yours has that id.', msg`No loan of yours has that id.`],
  [
    'Passkeys for this portal are added with us. Call us to add one.',
    msg`Passkeys for this portal are added with us. Call us to add one.`,
  ],
  ['Password is required.', msg`Password is required.`],
  ['Password must be at least 8 characters.', msg`Password must be at least 8 characters.`],
  ['Passwords do not match.', msg`Passwords do not match.`],
  ['Please confirm your password.', msg`Please confirm your password.`],
  [
    'Recovery codes are offered once you’ve added a second sign-in step.',
    msg`Recovery codes are offered once you’ve added a second sign-in step.`,
  ],
  [
    'Something went wrong on our side. Please try again later.',
    msg`Something went wrong on our side. Please try again later.`,
  ],
  [
    'That code didn’t work. Check your app and enter the code it shows now.',
    msg`That code didn’t work. Check your app and enter the code it shows now.`,
  ],
  [
    'That code didn’t work. Check your email and enter the newest code (codes last 5 minutes).',
    msg`That code didn’t work. Check your email and enter the newest code (codes last 5 minutes).`,
  ],
  [
    'That code didn’t work. Check your email and enter the newest code.',
    msg`That code didn’t work. Check your email and enter the newest code.`,
  ],
  [
    'That code no longer works. Send a new code and enter it.',
    msg`That code no longer works. Send a new code and enter it.`,
  ],
  [
    'That email address now belongs to another account, so we couldn’t change yours. Ask again with another address.',
    msg`That email address now belongs to another account, so we couldn’t change yours. Ask again with another address.`,
  ],
  ['That isn’t your current password.', msg`That isn’t your current password.`],
  [
    'That isn’t your current password. Check it and try again.',
    msg`That isn’t your current password. Check it and try again.`,
  ],
  [
    'That page of activity doesn’t exist. Load the list again.',
    msg`That page of activity doesn’t exist. Load the list again.`,
  ],
  [
    'That’s the email address you sign in with already.',
    msg`That’s the email address you sign in with already.`,
  ],
  [
    'That’s too many wrong codes for now. Try again in 15 minutes, or use another way to confirm it’s you.',
    msg`That’s too many wrong codes for now. Try again in 15 minutes, or use another way to confirm it’s you.`,
  ],
  [
    'That’s too many wrong codes, so we’ve stopped this one. Start adding it again.',
    msg`That’s too many wrong codes, so we’ve stopped this one. Start adding it again.`,
  ],
  [
    'The consent to sign electronically has changed. Read it again, then agree.',
    msg`The consent to sign electronically has changed. Read it again, then agree.`,
  ],
  ['The link is incomplete.', msg`The link is incomplete.`],
  ['The request could not be completed.', msg`The request could not be completed.`],
  ['The service is busy. Try again in a few seconds.', msg`The service is busy. Try again in a few seconds.`],
  [
    'The service is temporarily unavailable. Please try again shortly.',
    msg`The service is temporarily unavailable. Please try again shortly.`,
  ],
  [
    'The sign-in session has reached its maximum age. Sign in again.',
    msg`The sign-in session has reached its maximum age. Sign in again.`,
  ],
  [
    'This document is not signed, so it has no signed PDF. Sign it in your loan’s checkout first.',
    msg`This document is not signed, so it has no signed PDF. Sign it in your loan’s checkout first.`,
  ],
  [
    'This document needs no signature: reviewing it is enough.',
    msg`This document needs no signature: reviewing it is enough.`,
  ],
  [
    'This email address already has an account. Sign in instead, or reset your password if you’ve forgotten it.',
    msg`This email address already has an account. Sign in instead, or reset your password if you’ve forgotten it.`,
  ],
  [
    'This email change link can’t be used: it has expired, was already used, or belongs to another account. Ask for a new link from your account page.',
    msg`This email change link can’t be used: it has expired, was already used, or belongs to another account. Ask for a new link from your account page.`,
  ],
  [
    'This is the session you are using. Sign out instead.',
    msg`This is the session you are using. Sign out instead.`,
  ],
  [
    'This link is invalid, has expired or was already used. If you’re worried about your account, reset your password.',
    msg`This link is invalid, has expired or was already used. If you’re worried about your account, reset your password.`,
  ],
  ['This loan has no document with that id.', msg`This loan has no document with that id.`],
  [
    'This loan has no documents to review or sign yet.',
    msg`This loan has no documents to review or sign yet.`,
  ],
  [
    'This operation is not allowed in the current authentication state.',
    msg`This operation is not allowed in the current authentication state.`,
  ],
  ['This password is too common. Choose another.', msg`This password is too common. Choose another.`],
  [
    'This password-reset link is invalid, has expired or was already used. Ask for a new link.',
    msg`This password-reset link is invalid, has expired or was already used. Ask for a new link.`,
  ],
  [
    'This sign-in link is invalid, has expired or was already used. Ask for a new link.',
    msg`This sign-in link is invalid, has expired or was already used. Ask for a new link.`,
  ],
  [
    'This verification link is invalid or has expired. Start your application again to get a new one.',
    msg`This verification link is invalid or has expired. Start your application again to get a new one.`,
  ],
  ['To add a passkey, confirm it’s you.', msg`To add a passkey, confirm it’s you.`],
  ['To add a sign-in step, confirm it’s you.', msg`To add a sign-in step, confirm it’s you.`],
  ['To change your email address, confirm it’s you.', msg`To change your email address, confirm it’s you.`],
  [
    'To receive and keep documents electronically you need a current web browser, an email address and a way to open and save PDF files. We will tell you if these requirements change.',
    msg`To receive and keep documents electronically you need a current web browser, an email address and a way to open and save PDF files. We will tell you if these requirements change.`,
  ],
  ['To sign these documents, confirm it’s you.', msg`To sign these documents, confirm it’s you.`],
  ['To sign this document, confirm it’s you.', msg`To sign this document, confirm it’s you.`],
  [
    'Too many wrong codes for this factor. Enroll it again.',
    msg`Too many wrong codes for this factor. Enroll it again.`,
  ],
  [
    'Two-step verification isn’t offered for this portal.',
    msg`Two-step verification isn’t offered for this portal.`,
  ],
  ['Type your full name to sign.', msg`Type your full name to sign.`],
  ['Use both an uppercase and a lowercase letter.', msg`Use both an uppercase and a lowercase letter.`],
  [
    'Use only letters, digits, punctuation and spaces.',
    msg`Use only letters, digits, punctuation and spaces.`,
  ],
  [
    'We can’t email you a code for this. Use another way to confirm it’s you.',
    msg`We can’t email you a code for this. Use another way to confirm it’s you.`,
  ],
  [
    'We couldn’t add that passkey. It may be one you’ve added already. Try again, or use another device.',
    msg`We couldn’t add that passkey. It may be one you’ve added already. Try again, or use another device.`,
  ],
  [
    'We’ve sent several codes just now. Use the newest one, or try again in 15 minutes.',
    msg`We’ve sent several codes just now. Use the newest one, or try again in 15 minutes.`,
  ],
  [
    'You agree that we may give you your loan documents, and the notices about them, electronically, and that you sign them electronically. An electronic signature has the same legal effect as one on paper.',
    msg`You agree that we may give you your loan documents, and the notices about them, electronically, and that you sign them electronically. An electronic signature has the same legal effect as one on paper.`,
  ],
  [
    'You already have this sign-in step. Remove it first to add it again.',
    msg`You already have this sign-in step. Remove it first to add it again.`,
  ],
  ['You don’t have a sign-in step with that id.', msg`You don’t have a sign-in step with that id.`],
  ['You have signed this document already.', msg`You have signed this document already.`],
  [
    'You may ask us for a paper copy of any document at no charge. You may withdraw this consent at any time by calling us: withdrawing it does not change documents you have signed already, and you would then sign on paper.',
    msg`You may ask us for a paper copy of any document at no charge. You may withdraw this consent at any time by calling us: withdrawing it does not change documents you have signed already, and you would then sign on paper.`,
  ],
  [
    'You need an authenticator app to sign in, so you can’t remove your only one. Call us if you’ve lost it.',
    msg`You need an authenticator app to sign in, so you can’t remove your only one. Call us if you’ve lost it.`,
  ],
  [
    'Your account doesn’t have a password with us to change. Use “Forgot password?” on the sign-in page to set one.',
    msg`Your account doesn’t have a password with us to change. Use “Forgot password?” on the sign-in page to set one.`,
  ],
  [
    'Your account doesn’t sign in with a password with us, so you can’t add an app here.',
    msg`Your account doesn’t sign in with a password with us, so you can’t add an app here.`,
  ],
  [
    'Your account has no name on it to sign with. Call us and we’ll add it.',
    msg`Your account has no name on it to sign with. Call us and we’ll add it.`,
  ],
  [
    'Your account uses two-step verification, so a sign-in link can’t sign you in. Sign in with your password instead.',
    msg`Your account uses two-step verification, so a sign-in link can’t sign you in. Sign in with your password instead.`,
  ],
  [
    'Your lender’s sign-in service didn’t accept this password.',
    msg`Your lender’s sign-in service didn’t accept this password.`,
  ],
  ['Your name is required.', msg`Your name is required.`],
  ['Your name must be at most 120 characters.', msg`Your name must be at most 120 characters.`],
  [
    'Your new password must be different from your current one.',
    msg`Your new password must be different from your current one.`,
  ],
  [
    'You’ve asked for several email changes just now. Please try again in 15 minutes.',
    msg`You’ve asked for several email changes just now. Please try again in 15 minutes.`,
  ],
  [
    'You’ve made several changes to your account in a short time. Wait 15 minutes, then try again.',
    msg`You’ve made several changes to your account in a short time. Wait 15 minutes, then try again.`,
  ],
  [
    `Password must be at most ${MAX_PASSWORD_LENGTH} characters.`,
    msg`Password must be at most ${MAX_PASSWORD_LENGTH} characters.`,
  ],
  [`Use at least ${MIN_PASSWORD_LENGTH} characters.`, msg`Use at least ${MIN_PASSWORD_LENGTH} characters.`],
  [`Use at most ${MAX_PASSWORD_LENGTH} characters.`, msg`Use at most ${MAX_PASSWORD_LENGTH} characters.`],
  [`Include a number or one of ${PASSWORD_SYMBOLS}.`, msg`Include a number or one of ${PASSWORD_SYMBOLS}.`],
  [`At least ${MIN_PASSWORD_LENGTH} characters`, msg`At least ${MIN_PASSWORD_LENGTH} characters`],
  [`A number or one of ${PASSWORD_SYMBOLS}`, msg`A number or one of ${PASSWORD_SYMBOLS}`],
  [
    `Use ${MAX_PASSKEY_NAME_LENGTH} characters or fewer.`,
    msg`Use ${MAX_PASSKEY_NAME_LENGTH} characters or fewer.`,
  ],
  [`The smallest loan is ${smallest}.`, msg`The smallest loan is ${smallest}.`],
  [`The largest loan is ${largest}.`, msg`The largest loan is ${largest}.`],
]);

// The one message with a borrower's words in it: told by what comes before and after the name.
const [beforeName, afterName] = signatureNameMismatchMessage('\u0000').split('\u0000') as [string, string];

/** A shared text in the portal's language: what `english` says, or `english` itself if unknown. */
export function inPortalLanguage(english: string): string {
  const known = SHARED_MESSAGES.get(english);
  if (known) return i18n._(known);
  if (english.startsWith(beforeName) && english.endsWith(afterName)) {
    const accountName = english.slice(beforeName.length, english.length - afterName.length);
    return i18n._(
      msg`This isn’t the name on your account. Type your name as it is on your account: ${accountName}.`,
    );
  }
  return english;
}
