// What mail logs may show. In production: no full recipient address at info level, and never a link
// (links carry one-time tokens). SMTP errors may quote the recipient, so their text is masked as well.

import { TOKEN_PAGES, redactPath } from '../http/logging.js';

const EMAIL = /[^\s<>()[\]"',;:]+@[^\s<>()[\]"',;:]+\.[^\s<>()[\]"',;:]+/g;
const LINK = /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"']+/gi;

// A token page's path inside some text, in any case and with any run of slashes or backslashes.
const TOKEN_PATH = new RegExp(
  `[\\\\/]+(?:${TOKEN_PAGES.map((page) => page.slice(1).replaceAll('/', '[\\\\/]+')).join('|')})[\\\\/]+[^\\s\\\\/?#"'<>]+`,
  'gi',
);

/** A link as a log may show it: the page it leads to, without a one-time token or query values. */
export function redactLinkForLog(link: string): string {
  try {
    const url = new URL(link);
    return `${url.origin}${redactPath(`${url.pathname}${url.search}`)}`;
  } catch {
    return '[link]';
  }
}

/** jane.doe@example.com -> j***@example.com */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return '***';
  return `${address[0]}***${address.slice(at)}`;
}

/** An error's text, with e-mail addresses masked, and links and token pages' paths removed. */
export function redactForLog(text: string): string {
  return text
    .replace(LINK, '[link]')
    .replace(TOKEN_PATH, '[token page]')
    .replace(EMAIL, (address) => maskEmail(address));
}
