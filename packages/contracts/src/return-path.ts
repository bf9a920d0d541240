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

// Characters a path segment keeps as they are; everything else is percent-encoded (RFC 3986 pchar).
const SEGMENT_KEEPS = /%(21|24|26|27|28|29|2A|2B|2C|3A|3B|3D|40)/gi;

const encodeSegment = (segment: string) =>
  encodeURIComponent(segment).replace(SEGMENT_KEEPS, (escape) => decodeURIComponent(escape));

/** The path percent-decoded until it no longer changes, or null when that fails or never settles. */
function fullyDecoded(path: string): string | null {
  let decoded = path;
  for (let round = 0; round <= MAX_DECODE_ROUNDS; round += 1) {
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      return null;
    }
    if (next === decoded) return decoded;
    decoded = next;
  }
  return null;
}

/**
 * The same-origin path `candidate` names, normalised, or null for anything else.
 *
 * The path is normalised before it is judged: percent-decoded (any depth), then its dot segments are
 * resolved, and it is encoded again, segment by segment. A path that only becomes ambiguous on the way
 * (a backslash, an empty segment as in `//`, a control character, a `%` of its own) is refused, since
 * browsers and servers disagree about those. What comes out is a path on this origin for every reader,
 * and the same when checked again.
 */
export function sameOriginPath(candidate: unknown): string | null {
  if (typeof candidate !== 'string' || !candidate.startsWith('/')) return null;
  if (candidate.includes('\\') || hasWhitespaceOrControl(candidate)) return null;
  const end = candidate.search(/[?#]/);
  const rawPath = end === -1 ? candidate : candidate.slice(0, end);
  const suffix = end === -1 ? '' : candidate.slice(end);
  const decoded = fullyDecoded(rawPath);
  if (decoded === null || /[\\%]/.test(decoded) || hasWhitespaceOrControl(decoded)) return null;

  const segments = decoded.split('/').slice(1);
  if (segments.slice(0, -1).includes('')) return null;
  const resolved: string[] = [];
  for (const segment of segments) {
    if (segment === '..') resolved.pop();
    else if (segment !== '.' && segment !== '') resolved.push(segment);
  }
  const last = segments.at(-1);
  const directory = (last === '' || last === '.' || last === '..') && resolved.length > 0;
  const path = `/${resolved.map(encodeSegment).join('/')}${directory ? '/' : ''}`;

  // Router paths match regardless of case.
  if (SIGN_IN_PATHS.includes(path.replace(/\/+$/, '').toLowerCase())) return null;
  const url = new URL(`${path}${suffix}`, PLACEHOLDER_ORIGIN);
  if (url.origin !== PLACEHOLDER_ORIGIN || url.pathname !== path) return null;
  return `${path}${suffix}`;
}

/** The same-origin path `candidate` names, or the default landing path. */
export function toSafeReturnPath(candidate: unknown, fallback: string = DEFAULT_LANDING_PATH): string {
  return sameOriginPath(candidate) ?? fallback;
}
