// What mail logs may show. In production: no full recipient address at info level, and never a link
// (links carry one-time tokens) nor a code. SMTP errors may quote the recipient or the message, so
// their text is masked as well.

import { TOKEN_PAGES } from '../http/redaction.js';

const EMAIL = /[^\s<>()[\]"',;:]+@[^\s<>()[\]"',;:]+\.[^\s<>()[\]"',;:]+/g;
const LINK = /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"']+/gi;
// An e-mailed code is 6 digits; no reply code, port or count an operator needs is that long.
const CODE = /\b\d{6,}\b/g;

// A token page's path inside some text, in any case and with any run of slashes or backslashes.
const TOKEN_PATH = new RegExp(
  `[\\\\/]+(?:${TOKEN_PAGES.map((page) => page.slice(1).replaceAll('/', '[\\\\/]+')).join('|')})[\\\\/]+[^\\s\\\\/?#"'<>]+`,
  'gi',
);

/** jane.doe@example.com -> j***@example.com */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return '***';
  return `${address[0]}***${address.slice(at)}`;
}

/** An error's text, with e-mail addresses masked, and links, token pages' paths and codes removed. */
export function redactForLog(text: string): string {
  return text
    .replace(LINK, '[link]')
    .replace(TOKEN_PATH, '[token page]')
    .replace(EMAIL, (address) => maskEmail(address))
    .replace(CODE, '[number]');
}

/** A delivery error's text for the log: a relay may quote the message, and a subject may be a code. */
export function redactDeliveryError(text: string, mail: { subject: string }): string {
  return redactForLog(mail.subject ? text.replaceAll(mail.subject, '[subject]') : text);
}
