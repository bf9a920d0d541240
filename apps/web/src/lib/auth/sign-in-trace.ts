import { SIGN_IN_TRACE_COOKIE, SIGN_IN_TRACE_MAX_AGE_SECONDS } from '@customer-core/contracts';

// A sign-in's requests (authn, the hidden-iframe authorize, token, the exchange) share a W3C trace
// context kept in a cookie while it runs, so that the server's traces show it as one (decision 0011).
// It carries random ids only; the server decides whether the trace is kept.

const randomHex = (bytes: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join('');

const attributes = () =>
  // eslint-disable-next-line lingui/no-unlocalized-strings -- a cookie, not words
  `; Path=/; SameSite=Strict${window.location.protocol === 'https:' ? '; Secure' : ''}`;

/** A new trace for the sign-in that starts (a second attempt is a trace of its own). */
export function beginSignInTrace(): void {
  const traceparent = `00-${randomHex(16)}-${randomHex(8)}-01`;
  // eslint-disable-next-line lingui/no-unlocalized-strings -- a cookie, not words
  document.cookie = `${SIGN_IN_TRACE_COOKIE}=${traceparent}; Max-Age=${SIGN_IN_TRACE_MAX_AGE_SECONDS}${attributes()}`;
}

/** The sign-in is over (signed in or failed): later requests are traces of their own. */
export function endSignInTrace(): void {
  // eslint-disable-next-line lingui/no-unlocalized-strings -- a cookie, not words
  document.cookie = `${SIGN_IN_TRACE_COOKIE}=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT${attributes()}`;
}
