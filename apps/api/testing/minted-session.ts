import { authEndpoints } from '@customer-core/contracts';
import { asPasswordSignIn } from './signed-in-ago.js';
import { SESSION_MINTER_SECRET, type TestServer } from './test-server.js';

export interface MintedSession {
  accessToken: string;
  borrower: { id: string; firstName: string | null; lastName: string | null };
}

/**
 * A borrower's session without signing in, for a test whose subject is not signing in: a real session
 * of the real session service (a lookup token minted by a trusted system, exchanged once at the
 * instance), its token re-signed by the server as after a password sign-in just now. A test of signing
 * in, of the token exchange, of a session's amr or of what a sign-in leaves (activity, e-mails, the
 * identity provider's session) signs in through the identity provider instead.
 */
export async function mintSession(
  server: TestServer,
  email: string,
  {
    exchange = async (path, body) => postJson(`${server.server.address}${path}`, body),
  }: {
    /**
     * Who exchanges the lookup token at this path of the instance (default: this process); e.g. a
     * browser page, whose session it then is.
     */
    exchange?: (path: string, body: { token: unknown }) => Promise<Record<string, unknown>>;
  } = {},
): Promise<MintedSession> {
  const borrower = await server.server.db
    .selectFrom('borrower')
    .select(['id', 'first_name', 'last_name'])
    .where('email', '=', email)
    .executeTakeFirst();
  if (!borrower) throw new Error(`No borrower has the address ${email}: none to mint a session for.`);
  const { token } = await postJson(
    `${server.server.address}${authEndpoints.mintLookupToken.path}`,
    { borrowerId: borrower.id },
    { authorization: `Bearer ${SESSION_MINTER_SECRET}` },
  );
  const { access_token: exchanged } = await exchange(authEndpoints.lookupTokenExchange.path, { token });
  return {
    accessToken: await asPasswordSignIn(server, String(exchanged)),
    borrower: { id: borrower.id, firstName: borrower.first_name, lastName: borrower.last_name },
  };
}

async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200)
    throw new Error(`${url} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}
