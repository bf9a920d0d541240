import { msg } from '@lingui/core/macro';

// The sign-in rules' messages (SignInSchema in the shared schemas), known by their English like the
// other shared messages (shared-messages.ts) but in the sign-in catalogue: the sign-in form shows
// them in Spanish without fetching the portal's words before the password leaves. No screen imports
// this list; the component tests hold it to the schema.
export const SIGN_IN_RULES_MESSAGES = [
  msg({ id: 'Email is required.', message: 'Email is required.' }),
  msg({ id: 'Invalid email address.', message: 'Invalid email address.' }),
  msg({ id: 'Password is required.', message: 'Password is required.' }),
  msg({ id: 'Password must be at least 8 characters.', message: 'Password must be at least 8 characters.' }),
  msg({
    id: 'Password must be at most 128 characters.',
    message: 'Password must be at most 128 characters.',
  }),
  msg({
    id: 'Use only letters, digits, punctuation and spaces.',
    message: 'Use only letters, digits, punctuation and spaces.',
  }),
];
