// The OpenID Provider (oidc-provider, configured for the portal's clients and Okta's ways). identity-provider.ts
// composes it with Okta's authn API, the users, their factors and the System Log into the bundled IdP.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { CLAIMS_BY_SCOPE, OIDC_SCOPES, accountOf } from './account-claims.js';
import { trackDatabaseLoss } from './database-loss.js';
import { logProviderEvents } from './provider-events.js';
import { OKTA_POST_MESSAGE, oktaPostMessageMode } from './okta-post-message.js';
import { accountReadAhead, combineModelWrites, PostgresOidcAdapter } from './oidc-model-repository.js';
import { sendScriptPage } from './pages.js';
import type { CookieKeys, SigningKeys } from './provider-key-repository.js';
import { providerHeaders } from './provider-headers.js';
import { dropMalformedOrigin } from './origin-header.js';
import { accountRedeemedIn, sessionTokenParam } from './session-token-param.js';
import type { SessionTokenRepository } from './session-token-repository.js';
import type { UserRepository } from './user-repository.js';
import type { IdpDatabase } from './schema.js';

// registerResponseMode exists in oidc-provider 8 but not in its typings.
declare module 'oidc-provider' {
  interface Provider {
    registerResponseMode(
      name: string,
      handler: (
        ctx: KoaContextWithOIDC,
        redirectUri: string,
        payload: Record<string, unknown>,
      ) => void | Promise<void>,
    ): void;
  }
}

export interface ClientOptions {
  clientId: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
}

export interface ProviderOptions {
  db: Kysely<IdpDatabase>;
  issuer: string;
  clients: ClientOptions[];
  allowedOrigins: string[];
  secureCookies: boolean;
  trustProxy: boolean;
  logger: FastifyBaseLogger;
  signingKeys: SigningKeys;
  cookieKeys: CookieKeys;
  users: UserRepository;
  sessionTokens: SessionTokenRepository;
  /** Default 300 s. */
  idTokenTtlSeconds?: number;
}

const originOf = (uri: string) => new URL(uri).origin;
const SESSION_TTL = 12 * 60 * 60;
/**
 * An ID token only has to last until the portal has exchanged it (seconds after it is issued) and
 * keep okta-auth-js's token manager "authenticated", which renews it before it expires.
 */
const ID_TOKEN_TTL = 5 * 60;

/** oidc-provider configured as Okta's default authorization server looks to okta-auth-js. */
export function createOidcProvider(options: ProviderOptions): Provider {
  const { db, users, logger, allowedOrigins } = options;
  const cookie = { httpOnly: true, sameSite: 'lax', secure: options.secureCookies, signed: true } as const;
  // Where browsers may be sent after a form post (logout confirm -> post_logout_redirect_uri).
  const formTargets = [
    "'self'",
    ...new Set([
      ...allowedOrigins,
      ...options.clients.flatMap((c) => [...c.redirectUris, ...c.postLogoutRedirectUris].map(originOf)),
    ]),
  ];

  const configuration: Configuration = {
    adapter: (model: string) => new PostgresOidcAdapter(db, model),
    jwks: options.signingKeys,
    cookies: {
      keys: options.cookieKeys.keys,
      long: cookie,
      short: cookie,
      names: { session: 'idp_session', interaction: 'idp_interaction', resume: 'idp_interaction_resume' },
    },
    clients: options.clients.map((client) => ({
      client_id: client.clientId,
      application_type: 'web',
      token_endpoint_auth_method: 'none', // a browser app: public client, PKCE instead of a secret
      redirect_uris: client.redirectUris,
      post_logout_redirect_uris: client.postLogoutRedirectUris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      response_modes: ['query', 'fragment', OKTA_POST_MESSAGE],
      id_token_signed_response_alg: 'RS256',
    })),
    routes: {
      authorization: '/v1/authorize',
      token: '/v1/token',
      jwks: '/v1/keys',
      userinfo: '/v1/userinfo',
      end_session: '/v1/logout',
      revocation: '/v1/revoke',
      introspection: '/v1/introspect',
    },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        // No confirmation screen: the portal asked for the sign-out; the form posts itself.
        logoutSource(ctx, form) {
          const autoSubmit = form.replace(
            '</form>',
            '<input type="hidden" name="logout" value="yes"/></form>',
          );
          sendScriptPage(
            ctx,
            "document.getElementById('op.logoutForm').submit();",
            { frameAncestors: [], formAction: formTargets },
            autoSubmit,
          );
        },
        postLogoutSuccessSource(ctx) {
          ctx.type = 'json';
          ctx.body = { status: 'signed_out' };
        },
      },
    },
    ttl: {
      AccessToken: 60 * 60,
      IdToken: options.idTokenTtlSeconds ?? ID_TOKEN_TTL,
      AuthorizationCode: 60,
      Interaction: 60, // never shown: there is no login page
      // Rolling: every authorize (the iframe renewal too) extends the session and its grant.
      Session: SESSION_TTL,
      Grant: SESSION_TTL,
      // Rotation never extends a refresh token beyond the first one's lifetime.
      RefreshToken: (ctx) => ctx?.oidc.entities.RotatedRefreshToken?.remainingTTL ?? SESSION_TTL,
    },
    claims: { acr: null, iss: null, ...CLAIMS_BY_SCOPE },
    conformIdTokenClaims: false, // profile and email claims in the ID token, as Okta does
    pkce: { methods: ['S256'], required: () => true },
    responseTypes: ['code'],
    clientBasedCORS: (_ctx, origin) => allowedOrigins.includes(origin),
    extraParams: { sessionToken: sessionTokenParam(options.sessionTokens, logger) },
    // At the token endpoint `token` is the code or refresh token: its session goes into the ID token.
    async findAccount(ctx, sub, token) {
      const user = accountRedeemedIn(ctx, sub) ?? accountReadAhead(sub) ?? (await users.findById(sub));
      const sessionUid = token && 'sessionUid' in token ? token.sessionUid : undefined;
      return user && accountOf(user, sessionUid);
    },
    // First-party clients: the requested OIDC scopes are granted without a consent screen.
    async loadExistingGrant(ctx) {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      let grant = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
      if (grant && (grant.accountId !== session.accountId || grant.clientId !== client.clientId))
        grant = undefined;
      grant ??= new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      const scopes = [...ctx.oidc.requestParamScopes].filter((scope) => OIDC_SCOPES.has(scope));
      if (scopes.length) grant.addOIDCScope(scopes.join(' '));
      await grant.save();
      return grant;
    },
    // offline_access needs prompt=consent, which a page-less provider cannot show: the browser app
    // gets a (rotating, session-bound) refresh token anyway, as the fallback when the iframe cannot renew.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    interactions: {
      // There is no login page here: whatever needs one is answered login_required (or the like)
      // at the client's redirect_uri; the portal shows its own sign-in.
      async url(_ctx, interaction) {
        await interaction.destroy();
        const prompt = interaction.prompt.name;
        if (prompt === 'login') throw new errors.LoginRequired('The user is not signed in.');
        if (prompt === 'consent') throw new errors.ConsentRequired();
        throw new errors.InteractionRequired();
      },
    },
    // JSON, never an HTML page with details.
    renderError(ctx, out) {
      ctx.type = 'json';
      ctx.body = {
        error: out.error,
        error_description: out.error_description,
        ...(out.state ? { state: out.state } : {}),
      };
    },
  };

  const provider = new Provider(options.issuer, configuration);
  provider.proxy = options.trustProxy;
  provider.registerResponseMode(OKTA_POST_MESSAGE, oktaPostMessageMode(allowedOrigins));
  provider.use(trackDatabaseLoss);
  provider.use(combineModelWrites(db));
  provider.use(providerHeaders(formTargets));
  provider.use(dropMalformedOrigin);
  logProviderEvents(provider, logger);
  return provider;
}
