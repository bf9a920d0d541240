// When to refresh the product access token, warn the borrower or end the session: pure rules, so
// that they can be tested without a browser. Times are milliseconds since the epoch (local clock);
// token claims are seconds, as signed.

/** Input counts as "the borrower is active" for this long. */
export const ACTIVITY_WINDOW_MS = 5 * 60_000;
/** After a refresh that could not reach the server, the next attempt waits this long. */
export const REFRESH_RETRY_MS = 10_000;
export const DEFAULT_WARNING_SECONDS = 60;

export interface TokenLifetime {
  /** Claims, in seconds. */
  iat: number;
  exp: number;
}

export interface SessionSituation {
  token: TokenLifetime;
  now: number;
  /**
   * The latest input since this tab got the current token (input before it was spent on the
   * previous one), or null.
   */
  lastActivityAt: number | null;
  warningSeconds: number;
  /** The warning is showing: only the borrower's choice (or a new token) ends it. */
  warning: boolean;
  /** A failed refresh is not retried before this time. */
  retryAt: number | null;
}

export type SessionStep =
  | { kind: 'expire' }
  | { kind: 'refresh' }
  | { kind: 'warn'; expiresAt: number }
  | { kind: 'wait'; until: number };

export function warningPoint(token: TokenLifetime, warningSeconds: number): number {
  return token.exp * 1000 - warningSeconds * 1000;
}

/** Once a third of the lifetime remains, and never later than the warning point. */
export function refreshPoint(token: TokenLifetime, warningSeconds: number): number {
  const lifetime = Math.max(0, token.exp - token.iat) * 1000;
  return Math.min(token.exp * 1000 - lifetime / 3, warningPoint(token, warningSeconds));
}

/** Input in the last few minutes, since this tab got the current token. */
export function isActive({ lastActivityAt, now }: SessionSituation): boolean {
  return lastActivityAt !== null && now - lastActivityAt <= ACTIVITY_WINDOW_MS;
}

/**
 * What to do now. Past the refresh point an active borrower's token is refreshed; an idle one is
 * warned at the warning point; at expiry the session ends. 'wait' says when to look again (input
 * may make that sooner).
 */
export function nextStep(situation: SessionSituation): SessionStep {
  const { token, now, warningSeconds, warning, retryAt } = situation;
  const expiresAt = token.exp * 1000;
  if (now >= expiresAt) return { kind: 'expire' };
  if (warning) return { kind: 'warn', expiresAt };
  const refreshAt = refreshPoint(token, warningSeconds);
  const warnAt = warningPoint(token, warningSeconds);
  const retryPending = retryAt !== null && now < retryAt;
  if (now >= refreshAt && !retryPending && isActive(situation)) return { kind: 'refresh' };
  if (now >= warnAt) return { kind: 'warn', expiresAt };
  if (now < refreshAt) return { kind: 'wait', until: refreshAt };
  return { kind: 'wait', until: retryPending ? Math.min(retryAt, warnAt) : warnAt };
}
