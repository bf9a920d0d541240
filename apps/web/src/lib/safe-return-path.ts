import { DEFAULT_LANDING_PATH, routes } from '@customer-core/contracts';

// Only same-origin paths are ever restored after sign-in (okta-auth-js#913, security checklist).
// Anything that could be read as another origin or a script URL, or that hides such a form behind
// percent-encoding, backslashes, whitespace or control characters, gives the default landing path.

const PLACEHOLDER_ORIGIN = 'https://return-path.invalid';
const MAX_DECODE_ROUNDS = 3;
// Returning to the sign-in machinery itself would only bounce the borrower around.
const SIGN_IN_PATHS: readonly string[] = [
  routes.signIn.path,
  routes.loginCallback.path,
  routes.loginHandler.path,
];

// Browsers strip or reinterpret whitespace and C0/C1 control characters inside URLs.
function hasWhitespaceOrControl(value: string): boolean {
  for (const character of value) {
    const code = character.codePointAt(0) ?? 0;
    if (code <= 0x20 || (code >= 0x7f && code <= 0x9f) || /\s/u.test(character)) return true;
  }
  return false;
}

// A backslash counts as a slash in URLs, so "/\evil" means "//evil": another origin.
function isLocalPath(value: string): boolean {
  return value.startsWith('/') && !value.startsWith('//') && !value.includes('\\');
}

export function toSafeReturnPath(candidate: unknown, fallback: string = DEFAULT_LANDING_PATH): string {
  if (typeof candidate !== 'string' || !isLocalPath(candidate) || hasWhitespaceOrControl(candidate)) {
    return fallback;
  }
  // Decoded forms must stay local paths too, so %2F and %5C cannot smuggle in a second slash.
  let decoded = candidate;
  for (let round = 0; round < MAX_DECODE_ROUNDS; round += 1) {
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      return fallback;
    }
    if (!isLocalPath(next)) return fallback;
    if (next === decoded) break;
    decoded = next;
  }
  const url = new URL(candidate, PLACEHOLDER_ORIGIN);
  if (url.origin !== PLACEHOLDER_ORIGIN) return fallback;
  if (SIGN_IN_PATHS.includes(url.pathname.replace(/\/+$/, ''))) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
