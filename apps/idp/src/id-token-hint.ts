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
 * (`bnVsbA.bnVsbA.` is "null"."null"): such a hint, in the query or a form body, is refused as the
 * malformed request it is before the provider reads it. An empty one is no hint, as oidc-provider takes it.
 */
export function hasMalformedIdTokenHint(params: URLSearchParams): boolean {
  const hints = params.getAll('id_token_hint').filter((hint) => hint !== '');
  return hints.length > 1 || hints.some((hint) => !isJwtShaped(hint));
}
