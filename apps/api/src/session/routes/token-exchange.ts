import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AccessTokenResponseSchema,
  apiPaths,
  ApiErrorSchema,
  TokenExchangeRequestSchema,
} from '@customer-core/contracts';
import { clientAddress, EMAIL_LINK_AMR } from '@customer-core/idp';
import type { AuthServices } from '../../services.js';
import type { IdTokenUse, VerifiedIdentity } from '../id-token-verifier.js';
import { idTokenRefused, idTokenSpent, type IdTokenSpent } from '../../http/token-problems.js';

/**
 * Sign-in step 4 (spec section 4): the identity provider's ID token becomes a product access token.
 *
 * An ID token signs in once, and only while its sign-in lasts: it is refused when it was exchanged
 * before (on any instance), when it was issued before the borrower's cut-off (password change,
 * sign-out everywhere), and, for the bundled identity provider, when the IdP session it names (sid)
 * has ended (signed out). A hosted Okta org keeps its sessions to itself: for its ID tokens the first
 * two checks apply, and their short life (Okta: one hour at most) bounds the rest.
 */
export const tokenExchangeRoute =
  ({
    idTokens,
    exchangedIdTokens,
    sessions,
    directory,
    borrowers,
    accountSessions,
    trustProxy,
    deviceOf,
  }: AuthServices): FastifyPluginAsyncZod =>
  async (app) => {
    /** Why this verified ID token may not sign in (any more), or null when it may. */
    async function spent(identity: VerifiedIdentity, use: IdTokenUse): Promise<IdTokenSpent | null> {
      if (identity.issuer === directory.issuer && (use.sessionId || directory.idTokensNameSessions)) {
        const live = use.sessionId && (await directory.hasSession(use.sessionId, identity.subject));
        if (!live) return 'idp_session_ended';
      }
      if (await sessions.issuedBeforeCutOff(identity, use.issuedAt)) return 'revoked';
      // Last: a token refused above is not spent.
      return (await exchangedIdTokens.spend(use)) ? null : 'used';
    }

    app.post(
      apiPaths.auth.tokenExchange,
      {
        schema: {
          body: TokenExchangeRequestSchema,
          response: { 200: AccessTokenResponseSchema, 400: ApiErrorSchema, 401: ApiErrorSchema },
        },
      },
      async (request, reply) => {
        const result = await idTokens.verify(request.body.token);
        if (!result.ok) {
          request.log.info({ problem: result.problem }, 'ID token refused');
          throw idTokenRefused(result.problem);
        }
        const why = await spent(result.identity, result.use);
        if (why) {
          request.log.info({ problem: why, issuer: result.identity.issuer }, 'ID token refused');
          throw idTokenSpent(why);
        }
        const borrower = await borrowers.upsertByIdentity(result.identity);
        // How the sign-in began, as the ID token's amr says: an e-mailed link (the provider's 'email'),
        // a passkey alone (hwk without pwd), or else the password.
        const amr = result.use.amr ?? [];
        const method = amr.includes(EMAIL_LINK_AMR[0]!)
          ? 'email_link'
          : amr.includes('hwk') && !amr.includes('pwd')
            ? 'passkey'
            : 'password';
        const token = await accountSessions.begin(borrower, {
          method,
          userAgent: request.headers['user-agent'],
          clientAddress: clientAddress(request, trustProxy),
          deviceId: deviceOf(request, reply),
          idpSessionId: result.use.sessionId,
          // The product token says how and when the borrower signed in, as the ID token did.
          authentication: { amr: result.use.amr, authTime: result.use.authTime },
        });
        request.log.info({ borrowerId: borrower.id }, 'borrower signed in');
        return { access_token: token };
      },
    );
  };
