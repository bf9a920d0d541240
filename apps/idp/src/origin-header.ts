import type { Middleware } from 'koa';

/** An origin as browsers send it: "null", or scheme://host[:port] in ASCII (RFC 6454). */
function isSerializedOrigin(value: string): boolean {
  if (value === 'null') return true;
  // A DNS name has at most 253 characters; a scheme, port and separators add a few.
  if (value.length > 300 || !/^[\x21-\x7e]+$/.test(value)) return false;
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}

/**
 * oidc-provider's CORS echoes the Origin header into Access-Control-Allow-Origin on some error answers,
 * before it checks the client's origins: a malformed one of 16 KB came back 16 KB long. No browser
 * sends such an Origin, so it is dropped before the provider reads it.
 */
export const dropMalformedOrigin: Middleware = async (ctx, next) => {
  const origin = ctx.req.headers.origin;
  if (origin !== undefined && !isSerializedOrigin(origin)) delete ctx.req.headers.origin;
  await next();
};
