import { i18n } from '@lingui/core';
import { getLenderBranding } from '../config/portal-config-meta';

// A text written in English outside the portal (a shared schema's message, an API error's message)
// in the portal's language: the catalogues hold each under its English (shared-messages.ts), with
// named placeholders for the parts that vary (the borrower's name, the lender's name and phone). Kept
// apart from that list, so that the first paint carries neither the list nor the schemas' module.

// The one such message with a borrower's words in it (signatureNameMismatchMessage in the contracts).
const NAME_MISMATCH = [
  'This isn’t the name on your account. Type your name as it is on your account: ',
  '.',
] as const;
const NAME_MISMATCH_ID = `${NAME_MISMATCH[0]}{accountName}${NAME_MISMATCH[1]}`;

/**
 * A message's catalogue id and values when its varying parts are ones the portal knows: the lender's
 * name and phone (from the portal's configuration) and a number of minutes, as the API writes them
 * in e.g. "Call {lenderName} at {supportPhone}" or "try again in {minutes} minutes".
 */
function withKnownParts(english: string): { id: string; values: Record<string, string> } {
  const values: Record<string, string> = {};
  let id = english;
  const { name, supportPhone } = getLenderBranding();
  for (const [key, value] of [
    ['lenderName', name],
    ['supportPhone', supportPhone],
  ] as const) {
    if (value && id.includes(value)) {
      id = id.split(value).join(`{${key}}`);
      values[key] = value;
    }
  }
  id = id.replace(/\b(\d+) minutes\b/, (_, minutes: string) => {
    values.minutes = minutes;
    return '{minutes} minutes';
  });
  return { id, values };
}

/** What `english` says in the portal's language; `english` itself when the catalogue does not have it. */
export function inPortalLanguage(english: string): string {
  if (i18n.messages[english] !== undefined) return i18n._(english);
  const [before, after] = NAME_MISMATCH;
  if (english.startsWith(before) && english.endsWith(after) && english.length > before.length + after.length)
    return i18n._(NAME_MISMATCH_ID, { accountName: english.slice(before.length, -after.length) });
  const { id, values } = withKnownParts(english);
  return i18n.messages[id] === undefined ? english : i18n._(id, values);
}
