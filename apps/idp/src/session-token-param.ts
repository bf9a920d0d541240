import type { FastifyBaseLogger } from 'fastify';
import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import type { SessionTokenRepository } from './session-token-repository.js';
import type { IdpUser } from './user-repository.js';

/** The user whose session token an authorize request redeemed or presented again, read with the token. */
const redeemedBy = new WeakMap<object, IdpUser>();

/**
 * The account this request presented a session token for, when it is `accountId`: findAccount of the
 * same request need not read it again. Undefined otherwise (another request, or no token presented).
 */
export function accountRedeemedIn(ctx: object, accountId: string): IdpUser | undefined {
  const user = redeemedBy.get(ctx);
  return user?.id === accountId ? user : undefined;
}

/**
 * The Okta `sessionToken` authorize parameter: signs the browser in without any login page.
 *
 * okta-auth-js presents one token twice: first in the hidden-iframe authorize (which redeems it and
 * sets the IdP session cookie), then in the full-page `signInWithRedirect`. The second presentation
 * is honoured only by the very IdP session that redeemed the token, so a token replayed from
 * another browser gets login_required.
 */
export function sessionTokenParam(tokens: SessionTokenRepository, logger: FastifyBaseLogger) {
  return async function validateSessionToken(
    ctx: KoaContextWithOIDC,
    value: string | undefined,
  ): Promise<void> {
    if (value === undefined) return;
    const { session, route } = ctx.oidc;
    if (route !== 'authorization' || !session) {
      throw new errors.InvalidRequest('sessionToken is only accepted by the authorization endpoint');
    }
    if (!value) throw new errors.LoginRequired('The session token is invalid or has expired.');

    const previousAccount = session.accountId;
    const presented = await tokens.present(value, session.uid);
    // The second presentation, in the session that redeemed the token, as its account: nothing to do.
    if (presented?.again && previousAccount && presented.userId === previousAccount) {
      if (presented.user) redeemedBy.set(ctx, presented.user);
      return;
    }
    if (presented && !presented.again) {
      const { userId: accountId, authentication } = presented;
      if (presented.user) redeemedBy.set(ctx, presented.user);
      // Another account's grants go (else "accountId mismatch"); oidc-provider already refuses
      // its session-bound tokens once the session's principal changes.
      if (previousAccount && previousAccount !== accountId) session.authorizations = {};
      // A new cookie value: no session fixation. A session made in this request (the browser sent
      // no session cookie) already has an id nobody else has seen, and no row to delete: renaming
      // it would only cost a DELETE per sign-in.
      if (!isNewSession(session)) session.resetIdentifier();
      // The ID token's amr and auth_time: how and when the user proved who they are.
      session.loginAccount({
        accountId,
        amr: authentication?.amr ?? ['pwd'],
        ...(authentication ? { loginTs: Math.floor(authentication.authenticatedAt.getTime() / 1000) } : {}),
      });
      logger.info({ accountId, clientId: ctx.oidc.client?.clientId }, 'session token redeemed');
      return;
    }

    logger.info({ clientId: ctx.oidc.client?.clientId }, 'session token refused');
    throw new errors.LoginRequired('The session token is invalid or has expired.');
  };
}

/**
 * oidc-provider marks (untyped) the session it made because the request had no session cookie at
 * all; a cookie naming a session that is gone gives an unmarked one, whose id came from the browser.
 */
function isNewSession(session: object): boolean {
  return (session as { new?: unknown }).new === true;
}
