/**
 * The check of a stored session (token decoding, the identity provider), loaded on demand: by the auth
 * state after the first paint, and ahead of the login callback once a password sign-in is accepted.
 */
export const loadAuthCheck = () => import('./resolve-auth-status');
