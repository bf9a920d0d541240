import type { KoaContextWithOIDC } from 'oidc-provider';
import { scriptJson, sendScriptPage } from './pages.js';

export const OKTA_POST_MESSAGE = 'okta_post_message';

/**
 * okta-auth-js reads a FLAT message: {code, state} or {error, error_description, state} (it drops
 * anything whose state does not match, and surfaces an error only with both error fields).
 */
function messageOf(payload: Record<string, unknown>): Record<string, unknown> {
  const pick = (...names: string[]) =>
    Object.fromEntries(names.filter((n) => payload[n] !== undefined).map((n) => [n, payload[n]]));
  if (payload.error !== undefined) {
    return {
      error_description: 'The request could not be completed.',
      ...pick('error', 'error_description', 'state'),
    };
  }
  return pick('code', 'state');
}

/**
 * The `okta_post_message` response mode: a page for okta-auth-js' hidden iframe (or popup) that
 * posts the authorization result to the window that opened it, only to the redirect URI's origin.
 * Only the portal's own origins may frame it.
 */
export function oktaPostMessageMode(frameAncestors: readonly string[]) {
  return (ctx: KoaContextWithOIDC, redirectUri: string, payload: Record<string, unknown>): void => {
    const message = messageOf(payload);
    const targetOrigin = new URL(redirectUri).origin;
    const script = [
      '(function () {',
      `  var data = ${scriptJson(message)};`,
      `  var targetOrigin = ${scriptJson(targetOrigin)};`,
      '  var target = window.opener || window.parent;',
      '  if (target && target !== window) target.postMessage(data, targetOrigin);',
      '})();',
    ].join('\n');
    ctx.status = message.error === undefined ? 200 : 400;
    sendScriptPage(ctx, script, { frameAncestors });
  };
}
