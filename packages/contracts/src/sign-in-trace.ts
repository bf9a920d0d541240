/**
 * The cookie in which the portal carries a sign-in's W3C trace context (a `traceparent` value) while
 * the sign-in runs, so that its requests to the identity provider and the API (the authorize in a
 * hidden iframe among them, which cannot be given a header) show as one trace (decision 0011).
 */
export const SIGN_IN_TRACE_COOKIE = 'sign_in_trace';
/** At most this long: a sign-in abandoned halfway does not leave later requests in its trace. */
export const SIGN_IN_TRACE_MAX_AGE_SECONDS = 600;
