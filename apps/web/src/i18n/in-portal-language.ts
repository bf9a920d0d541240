import { i18n } from '@lingui/core';

// A text written in English outside the portal (a shared schema's message, an API error's message)
// in the portal's language: the catalogues hold each under its English (shared-messages.ts). Kept
// apart from that list, so that the first paint carries neither the list nor the schemas' module.

// The one such message with a borrower's words in it (signatureNameMismatchMessage in the contracts).
const NAME_MISMATCH = [
  'This isn’t the name on your account. Type your name as it is on your account: ',
  '.',
] as const;
const NAME_MISMATCH_ID = `${NAME_MISMATCH[0]}{accountName}${NAME_MISMATCH[1]}`;

/** What `english` says in the portal's language; `english` itself when the catalogue does not have it. */
export function inPortalLanguage(english: string): string {
  const [before, after] = NAME_MISMATCH;
  if (english.startsWith(before) && english.endsWith(after) && english.length > before.length + after.length)
    return i18n._(NAME_MISMATCH_ID, { accountName: english.slice(before.length, -after.length) });
  return i18n.messages[english] === undefined ? english : i18n._(english);
}
