import type { FastifyBaseLogger } from 'fastify';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { failedForDatabaseLoss } from './database-loss.js';

/** After a lost database connection: the next request gets a fresh one, usually at once. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

interface ProviderError {
  error?: string;
  error_description?: string;
  message?: string;
}

// What a log line may carry about a request: never parameters (codes, tokens, session tokens).
const about = (ctx: KoaContextWithOIDC | undefined) => ({
  route: ctx?.oidc?.route,
  clientId: ctx?.oidc?.client?.clientId,
});

const describe = (err: ProviderError) => ({
  error: err.error ?? err.message,
  description: err.error_description,
});

/** oidc-provider's events as structured log lines. */
export function logProviderEvents(provider: Provider, logger: FastifyBaseLogger): void {
  provider.on('server_error', (ctx: KoaContextWithOIDC, err: Error) => {
    if (failedForDatabaseLoss(err)) {
      // Emitted before the response goes out: the database went away under this request, so the
      // client is told to retry (503) rather than that something is broken (500).
      if (ctx.status === 500) ctx.status = 503;
      ctx.set('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      const { code } = err as { code?: string };
      logger.warn(
        { ...about(ctx), err: { message: err.message, code } },
        'identity provider: database unavailable',
      );
      return;
    }
    logger.error({ ...about(ctx), err }, 'identity provider server error');
  });
  for (const event of ['authorization.error', 'grant.error', 'end_session.error', 'revocation.error']) {
    provider.on(event, (ctx: KoaContextWithOIDC, err: ProviderError) => {
      logger.info({ ...about(ctx), ...describe(err) }, event);
    });
  }
  for (const event of ['userinfo.error', 'jwks.error', 'discovery.error', 'introspection.error']) {
    provider.on(event, (ctx: KoaContextWithOIDC, err: ProviderError) => {
      logger.debug({ ...about(ctx), ...describe(err) }, event);
    });
  }
  provider.on('grant.revoked', (ctx: KoaContextWithOIDC) => logger.info(about(ctx), 'grant revoked'));
  provider.on('end_session.success', (ctx: KoaContextWithOIDC) =>
    logger.info(about(ctx), 'signed out at the identity provider'),
  );
  // Koa's own fallback would print to stderr.
  provider.app.on('error', (err: Error) => logger.error({ err }, 'identity provider request failed'));
}
