import { createHash } from 'node:crypto';
import type { KoaContextWithOIDC } from 'oidc-provider';

/** JSON that is safe inside an inline <script>: no `</script>`, `<!--`, `&` or JS line terminators survive. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export interface PagePolicy {
  /** Origins allowed to frame the page; none when empty. */
  frameAncestors: readonly string[];
  /** Where forms may post (and redirect after posting); none when empty. */
  formAction?: readonly string[];
}

const sourceList = (origins: readonly string[] | undefined) =>
  origins?.length ? origins.join(' ') : "'none'";

/**
 * Answers a minimal HTML page whose only script is `script`, allowed by its sha-256 in the page's
 * own Content-Security-Policy (no 'unsafe-inline'); frame-ancestors replaces X-Frame-Options.
 */
export function sendScriptPage(ctx: KoaContextWithOIDC, script: string, policy: PagePolicy, body = ''): void {
  const digest = createHash('sha256').update(script).digest('base64');
  ctx.remove('X-Frame-Options');
  // A popup (okta-auth-js' getWithPopup) must keep its window.opener.
  ctx.remove('Cross-Origin-Opener-Policy');
  ctx.set(
    'Content-Security-Policy',
    [
      "default-src 'none'",
      `script-src 'sha256-${digest}'`,
      "base-uri 'none'",
      `form-action ${sourceList(policy.formAction)}`,
      `frame-ancestors ${sourceList(policy.frameAncestors)}`,
    ].join('; '),
  );
  ctx.type = 'html';
  ctx.body = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>&#8203;</title></head><body>${body}<script>${script}</script></body></html>`;
}
