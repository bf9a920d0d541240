import assert from 'node:assert/strict';
import {
  inbox,
  waitForMail,
  type IdpTokens,
  type MailboxMessage,
  type TestServer,
} from '../../testing/index.js';
import { post } from './session.js';

export { inbox, type MailboxMessage };

/** Waits until `to` has received `count` messages; returns them, newest first. */
export function mailFor(baseUrl: string, to: string, count = 1): Promise<MailboxMessage[]> {
  return waitForMail(baseUrl, to, { count });
}

/** The one-time token of the newest message's link to `page`. */
export function tokenOf(
  message: MailboxMessage,
  page: 'password-reset' | 'magic-link-landing' | 'unrecognized-sign-in',
): string {
  const prefix = new RegExp(`^https?://[^/]+/auth/${page}/([^/?#]+)$`);
  const token = message.links.map((link) => prefix.exec(link)?.[1]).find(Boolean);
  assert.ok(token, `a /auth/${page}/ link in ${JSON.stringify(message.links)}`);
  return decodeURIComponent(token);
}

let users = 0;

/** A new user of the bundled identity provider, with a unique address. */
export async function createUser(server: TestServer, password = 'Original-Pass-1') {
  const idp = server.server.identityProvider;
  assert.ok(idp, 'the bundled identity provider runs');
  users += 1;
  const login = `borrower.${users}.${Date.now()}@example.com`;
  const user = await idp.users.create({ login, password, firstName: 'Ada', lastName: 'Lovelace' });
  return { ...user, password };
}

/** Okta's authn call, as the portal's sign-in makes it; a distinct client address per call when given. */
export function authn(baseUrl: string, username: string, password: string, clientAddress?: string) {
  return post(
    baseUrl,
    '/api/v1/authn',
    { username, password },
    clientAddress ? { 'x-forwarded-for': clientAddress } : {},
  );
}

/** Headers that may differ between any two answers. */
const VARYING = new Set(['date', 'x-request-id']);

export function stableHeaders(response: Response): Record<string, string> {
  return Object.fromEntries([...response.headers].filter(([name]) => !VARYING.has(name)).sort());
}

/** The subject of the identity provider's ID token (its user id). */
export function idTokenSubject({ idToken }: IdpTokens): string {
  return (JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub;
}

/** The e-mailed-link limits lifted out of the way, for servers whose tests are not about them. */
export const LINK_LIMITS_LIFTED = {
  EMAIL_LINK_LIMIT_PER_ADDRESS_AND_CLIENT: '1000',
  EMAIL_LINK_FLOOD_LIMIT_PER_ADDRESS: '1000',
  EMAIL_LINK_LIMIT_PER_CLIENT: '1000',
};

/**
 * A new client address at each call, in a documentation range (`198.51`, `203.0`): requests counted per
 * client network count each caller apart.
 */
export function clientAddresses(range = '198.51'): () => string {
  let clients = 0;
  return () => {
    clients += 1;
    return `${range}.${Math.floor(clients / 250)}.${clients % 250}`;
  };
}
