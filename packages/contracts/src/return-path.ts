import { DEFAULT_LANDING_PATH, routes } from './routes.js';

// Where a borrower is sent after signing in: same-origin paths only (okta-auth-js#913, security
// checklist). The portal restores saved addresses with it and the API checks addresses carried by
// e-mailed links with it: one rule on both sides.

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

/** The same-origin path `candidate` names (normalised), or null for anything else. */
export function sameOriginPath(candidate: unknown): string | null {
  if (typeof candidate !== 'string' || !isLocalPath(candidate) || hasWhitespaceOrControl(candidate)) {
    return null;
  }
  // Decoded forms must stay local paths too, so %2F and %5C cannot smuggle in a second slash.
  let decoded = candidate;
  for (let round = 0; round < MAX_DECODE_ROUNDS; round += 1) {
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      return null;
    }
    if (!isLocalPath(next)) return null;
    if (next === decoded) break;
    decoded = next;
  }
  const url = new URL(candidate, PLACEHOLDER_ORIGIN);
  if (url.origin !== PLACEHOLDER_ORIGIN) return null;
  if (SIGN_IN_PATHS.includes(url.pathname.replace(/\/+$/, ''))) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The same-origin path `candidate` names, or the default landing path. */
export function toSafeReturnPath(candidate: unknown, fallback: string = DEFAULT_LANDING_PATH): string {
  return sameOriginPath(candidate) ?? fallback;
}
