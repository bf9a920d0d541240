import type { BorrowerList, CheckoutStatus, SessionEndedBy, SessionMethod } from '@customer-core/contracts';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { z } from 'zod';
import type { SentMailSchema } from '@customer-core/contracts';

// A borrower's states and records as staff read them: the contracts' values, in the console's words
// (the portal's own labels speak to the borrower: "By you", "From your lender").

type BorrowerState = BorrowerList['borrowers'][number]['state'];

export const BORROWER_STATE_LABELS: Record<BorrowerState, MessageDescriptor> = {
  invited: msg`Invited`,
  registered: msg`Registered`,
  not_registered: msg`Not registered`,
};

export const SESSION_METHOD_LABELS: Record<SessionMethod, MessageDescriptor> = {
  password: msg`Password`,
  email_link: msg`Sign-in link by email`,
  registration: msg`Registration`,
  lookup_token: msg`Link from the lender`,
  passkey: msg`Passkey`,
};

export const SESSION_ENDED_BY_LABELS: Record<SessionEndedBy, MessageDescriptor> = {
  borrower: msg`By the borrower`,
  operator: msg`By staff`,
  password_change: msg`When the password changed`,
  unrecognized_sign_in: msg`When the borrower reported a sign-in they didn’t recognize`,
  email_change: msg`When the email address changed`,
};

export const CHECKOUT_STATUS_LABELS: Record<CheckoutStatus, MessageDescriptor> = {
  not_started: msg`Not started`,
  in_progress: msg`In progress`,
  completed: msg`Completed`,
};

type MailStatus = z.infer<typeof SentMailSchema>['status'];

export const MAIL_STATUS_LABELS: Record<MailStatus, MessageDescriptor> = {
  pending: msg`Waiting to send`,
  sending: msg`Sending`,
  sent: msg`Sent`,
  dead: msg`Gave up`,
};

/** Second factors as the directory names them (Okta's factor types), or as the portal does. */
export const FACTOR_TYPE_LABELS: Record<string, MessageDescriptor> = {
  'token:software:totp': msg`Authenticator app`,
  authenticator_app: msg`Authenticator app`,
  email: msg`Email codes`,
  email_code: msg`Email codes`,
  webauthn: msg`Passkey`,
  passkey: msg`Passkey`,
};

export const FACTOR_STATUS_LABELS: Record<string, MessageDescriptor> = {
  ACTIVE: msg`Active`,
  PENDING_ACTIVATION: msg`Not finished setting up`,
};

/** A borrower's name as their account has it; null while it has none. */
export function borrowerName(borrower: { firstName: string | null; lastName: string | null }): string | null {
  return [borrower.firstName, borrower.lastName].filter(Boolean).join(' ') || null;
}

/** What each e-mail the portal sends is, as staff name it; one the console doesn't know shows its kind. */
export const MAIL_KIND_LABELS: Readonly<Record<string, MessageDescriptor>> = {
  invitation: msg`Invitation`,
  'password-reset': msg`Password reset link`,
  'password-changed': msg`Password changed`,
  'magic-link': msg`Sign-in link`,
  'new-sign-in': msg`New sign-in`,
  'email-verification': msg`Application email check`,
  'email-change-link': msg`Email change link`,
  'email-changed': msg`Email address changed`,
  'email-in-use': msg`Email address already in use`,
  'factors-reset': msg`Second factors reset by staff`,
  'payment-scheduled': msg`Payment scheduled`,
  'payment-settled': msg`Payment applied`,
  'payment-cancelled': msg`Payment cancelled`,
  'payment-returned': msg`Payment returned`,
  'autopay-on': msg`Autopay turned on`,
  'autopay-off': msg`Autopay turned off`,
  'autopay-reminder': msg`Autopay reminder`,
  'bank-account-added': msg`Bank account added`,
  'bank-account-removed': msg`Bank account removed`,
};
