// What mail logs may show. In production: no full recipient address at info level, and never a link
// (links carry one-time tokens). SMTP errors may quote the recipient, so their text is masked as well.

const EMAIL = /[^\s<>()[\]"',;:]+@[^\s<>()[\]"',;:]+\.[^\s<>()[\]"',;:]+/g;
const LINK = /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"']+/gi;

/** jane.doe@example.com -> j***@example.com */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return '***';
  return `${address[0]}***${address.slice(at)}`;
}

/** An error's text, with e-mail addresses masked and links removed. */
export function redactForLog(text: string): string {
  return text.replace(LINK, '[link]').replace(EMAIL, (address) => maskEmail(address));
}
