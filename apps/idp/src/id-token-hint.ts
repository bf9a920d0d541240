import type { Middleware } from 'koa';

/** Whether `hint` is three base64url parts whose first two are JSON objects, as any JWT's are. */
function isJwtShaped(hint: string): boolean {
  const parts = hint.split('.');
  if (parts.length !== 3) return false;
  return parts.slice(0, 2).every((part) => {
    try {
      const decoded: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
      return typeof decoded === 'object' && decoded !== null && !Array.isArray(decoded);
    } catch {
      return false;
    }
  });
}

/**
 * oidc-provider answers 500 to an `id_token_hint` whose header or payload is JSON but not an object
 * (`bnVsbA.bnVsbA.` is "null"."null"): such a hint is refused as the malformed request it is, in the
 * provider's error shape, before the provider reads it.
 */
export const refuseMalformedIdTokenHint: Middleware = async (ctx, next) => {
  const body = (ctx.req as { body?: unknown }).body;
  const hints = [ctx.query.id_token_hint, (body as Record<string, unknown> | undefined)?.id_token_hint];
  const malformed = hints.some(
    // An empty one is no hint, as oidc-provider takes it.
    (hint) => hint !== undefined && hint !== '' && (typeof hint !== 'string' || !isJwtShaped(hint)),
  );
  if (malformed) {
    ctx.status = 400;
    ctx.body = { error: 'invalid_request', error_description: 'id_token_hint is not a valid JWT' };
    return;
  }
  await next();
};
