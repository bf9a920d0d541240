import { EMAIL_FIELD_ID, PASSWORD_FIELD_ID } from './sign-in-form-view';

// The first paint shows a read-only placeholder of the sign-in form while the interactive form loads
// (a moment). When the interactive form takes over, the focus stays where the borrower put it.

export type FocusedField = typeof EMAIL_FIELD_ID | typeof PASSWORD_FIELD_ID | null;

/** Read while the placeholder is still in the page (the interactive form's first render). */
export function readPlaceholderFocus(): FocusedField {
  const focused = document.activeElement?.id;
  return focused === EMAIL_FIELD_ID || focused === PASSWORD_FIELD_ID ? focused : null;
}
