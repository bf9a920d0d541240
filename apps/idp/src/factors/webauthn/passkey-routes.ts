import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type {} from '@fastify/rate-limit'; // route config typings: config.rateLimit
import { z } from 'zod';
import { passkeySignInPaths, UNKNOWN_PASSKEY_CAUSE } from '@customer-core/contracts';
import { clientAddress, networkOf } from '@customer-core/contracts/server';
import { successBody } from '../../authn-route.js';
import { createAuthnCors } from '../../cors.js';
import { oktaErrorHandler, sendOktaError } from '../../okta-error-handler.js';
import { authenticationFailed, forbidden, malformedRequest, oktaError } from '../../okta-errors.js';
import type { SessionTokenRepository } from '../../session-token-repository.js';
import type { UserRepository } from '../../user-repository.js';
import type { WebauthnFactors } from './webauthn-factors.js';

/**
 * A passkey sign-in (user verification on a discoverable credential) says: a hardware-held key, the
 * user verified at it; possession and a PIN or biometric are two factors (RFC 8176 hwk, user, mfa).
 */
export const PASSKEY_AMR = ['hwk', 'user', 'mfa'];

const Base64Url = z
  .string()
  .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'base64url')
  .max(20_000);
/** The assertion as the browser's PublicKeyCredential.toJSON() (and @simplewebauthn/browser) gives it. */
const AssertionBodySchema = z.object({
  id: Base64Url.max(1400),
  rawId: Base64Url.max(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: Base64Url,
    authenticatorData: Base64Url,
    signature: Base64Url,
    userHandle: Base64Url.max(400).optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()).optional().default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
});

const unknownPasskey = () => oktaError('E0000004', 'Authentication failed', [UNKNOWN_PASSKEY_CAUSE]);

/**
 * Passkey sign-in without a password (the bundled provider's own pair: Okta's Classic API has
 * none): options with a single-use challenge, then the assertion, answered as a SUCCESS transaction
 * is, with a session token for /authorize. Both rate limited per client network.
 */
export function passkeyRoutes(deps: {
  webauthn: WebauthnFactors;
  users: UserRepository;
  sessionTokens: SessionTokenRepository;
  allowedOrigins: readonly string[];
  trustProxy: boolean;
  logger: FastifyBaseLogger;
}) {
  const { webauthn, users, sessionTokens, logger } = deps;
  const cors = createAuthnCors(deps.allowedOrigins);
  const rateLimit = {
    max: 30,
    timeWindow: '1 minute',
    keyGenerator: (request: FastifyRequest) =>
      `authn-passkey:${networkOf(clientAddress(request, deps.trustProxy))}`,
  };

  return async function registerPasskeyRoutes(app: FastifyInstance): Promise<void> {
    app.setErrorHandler(oktaErrorHandler('authn passkey', cors.apply));
    for (const path of Object.values(passkeySignInPaths)) {
      app.options(path, (request, reply) => cors.preflight(request, reply));
    }

    app.post(passkeySignInPaths.options, { config: { rateLimit } }, async (request, reply) => {
      cors.apply(request, reply);
      if (cors.refuses(request)) return sendOktaError(reply, 403, forbidden());
      return reply.header('Cache-Control', 'no-store').send(await webauthn.passkeyOptions());
    });

    app.post(passkeySignInPaths.verify, { config: { rateLimit } }, async (request, reply) => {
      cors.apply(request, reply);
      if (cors.refuses(request)) return sendOktaError(reply, 403, forbidden());
      const parsed = AssertionBodySchema.safeParse(request.body);
      if (!parsed.success) {
        const causes = parsed.error.issues.map(
          (issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`,
        );
        return sendOktaError(reply, 400, malformedRequest(causes));
      }
      const log = logger.child({ reqId: request.id });
      const outcome = await webauthn.passkeySignIn(parsed.data);
      if (outcome.kind === 'unknown_credential') {
        log.info({ outcome: 'unknown_passkey' }, 'passkey sign-in failed');
        return sendOktaError(reply, 401, unknownPasskey());
      }
      const user = outcome.kind === 'signed_in' ? await users.findById(outcome.userId) : undefined;
      if (!user) {
        log.info({ outcome: 'refused_assertion' }, 'passkey sign-in failed');
        return sendOktaError(reply, 401, authenticationFailed());
      }
      const token = await sessionTokens.issue(user.id, { amr: PASSKEY_AMR, authenticatedAt: new Date() });
      log.info({ userId: user.id }, 'passkey sign-in succeeded');
      return reply.header('Cache-Control', 'no-store').send(successBody(user, token));
    });
  };
}
