import { msg } from '@lingui/core/macro';

// The shared schemas' messages the console shows (a field's check, terms that contradict each other),
// known by their English as the portal's are (i18n/shared-messages.ts), but in the console's catalogue:
// FieldError and inPortalLanguage show each in the console's language. No screen imports this list;
// the console's unit test holds it to the schemas.
export const CONSOLE_CONTRACT_MESSAGES = [
  // Names.
  msg({ id: 'First name is required.', message: 'First name is required.' }),
  msg({
    id: 'First name must be at most 80 characters.',
    message: 'First name must be at most 80 characters.',
  }),
  msg({ id: 'Last name is required.', message: 'Last name is required.' }),
  msg({
    id: 'Last name must be at most 80 characters.',
    message: 'Last name must be at most 80 characters.',
  }),
  // The borrowers’ search.
  msg({
    id: 'Search with 2 to 100 characters of a name, an e-mail address or a loan reference.',
    message: 'Search with 2 to 100 characters of a name, an e-mail address or a loan reference.',
  }),
  // A reason for the audit trail.
  msg({
    id: 'The reason must be at most 500 characters, on one line.',
    message: 'The reason must be at most 500 characters, on one line.',
  }),
  // Webhook endpoints.
  msg({
    id: 'The URL must be an http(s) address of at most 2,000 characters, without credentials.',
    message: 'The URL must be an http(s) address of at most 2,000 characters, without credentials.',
  }),
  msg({ id: 'Name at least one event type.', message: 'Name at least one event type.' }),
  msg({
    id: 'The description must be at most 200 characters.',
    message: 'The description must be at most 200 characters.',
  }),
  // Loan terms that contradict each other (contradictionsOf).
  msg({
    id: 'balance must not be more than the amount lent',
    message: 'balance must not be more than the amount lent',
  }),
  msg({
    id: 'a PAID loan has no balance left: give a balance of 0',
    message: 'a PAID loan has no balance left: give a balance of 0',
  }),
  msg({
    id: 'a PAID loan has no next payment: leave it out',
    message: 'a PAID loan has no next payment: leave it out',
  }),
  msg({
    id: 'a CLOSED LOST loan has no next payment: leave it out',
    message: 'a CLOSED LOST loan has no next payment: leave it out',
  }),
  msg({
    id: 'an ACTIVE loan has a balance: a loan paid off is PAID',
    message: 'an ACTIVE loan has a balance: a loan paid off is PAID',
  }),
  msg({
    id: 'a PAST DUE loan has a balance: a loan paid off is PAID',
    message: 'a PAST DUE loan has a balance: a loan paid off is PAID',
  }),
  msg({ id: 'the next payment must be more than zero', message: 'the next payment must be more than zero' }),
  msg({
    id: 'the next payment must not be more than the balance',
    message: 'the next payment must not be more than the balance',
  }),
  msg({ id: 'Give at least one term to change.', message: 'Give at least one term to change.' }),
];
