import assert from 'node:assert/strict';

// Classic open-redirect payloads for a "return to this address" parameter (OWASP, PortSwigger, the
// okta-auth-js#913 report): whatever the check makes of them must be a path on the portal's own origin.

const HOST = 'evil.example';

export const OPEN_REDIRECT_PAYLOADS: readonly string[] = [
  `//${HOST}`,
  `//${HOST}/ui/dashboard/`,
  `///${HOST}`,
  `////${HOST}`,
  `/\\${HOST}`,
  `\\/${HOST}`,
  `\\\\${HOST}`,
  `/\\/${HOST}`,
  `/./${HOST}`,
  `/.//${HOST}`,
  `/./\\${HOST}`,
  `/%2e//${HOST}`,
  `/%2E//${HOST}`,
  `/%2e%2e//${HOST}`,
  `/a/..//${HOST}`,
  `/a/../\\${HOST}`,
  `/a/%2e%2e//${HOST}`,
  `/a/%252e%252e//${HOST}`,
  `/ui/../..//${HOST}`,
  `/..//${HOST}`,
  `/../\\${HOST}`,
  `/%2F${HOST}`,
  `/%2f%2f${HOST}`,
  `%2F%2F${HOST}`,
  `/%252F${HOST}`,
  `/%25252F${HOST}`,
  `/%5C${HOST}`,
  `/%5c%5c${HOST}`,
  `/%09/${HOST}`,
  `/%0a/${HOST}`,
  `/%0d%0a/${HOST}`,
  `/%00/${HOST}`,
  `/%20/${HOST}`,
  `/%C2%A0/${HOST}`,
  `/\t/${HOST}`,
  `/\n/${HOST}`,
  `/\r/${HOST}`,
  `/ /${HOST}`,
  `/\u0000/${HOST}`,
  `/\u0085/${HOST}`,
  `/\u00a0/${HOST}`,
  `/\u3000/${HOST}`,
  `/\uff0f${HOST}`,
  ` //${HOST}`,
  `https://${HOST}`,
  `http://${HOST}`,
  `HTTPS://${HOST}`,
  `https:${HOST}`,
  `https:/${HOST}`,
  `https:\\\\${HOST}`,
  `//user@${HOST}`,
  `/user@${HOST}`,
  `user@${HOST}`,
  `http://portal.example@${HOST}`,
  `//${HOST}%2F@portal.example`,
  `//${HOST}?@portal.example`,
  `//${HOST}#@portal.example`,
  `/\\${HOST}%40portal.example`,
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'java\tscript:alert(1)',
  '\u0001javascript:alert(1)',
  '/javascript:alert(1)',
  'javascript://%0aalert(1)',
  '%6A%61%76%61%73%63%72%69%70%74:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'vbscript:msgbox(1)',
  `/%E0%A4%A/${HOST}`,
  `/%/${HOST}`,
  `/ui/dashboard/?next=//${HOST}`,
  `/ui/dashboard/#//${HOST}`,
  `/ui/dashboard/..%2f..%2f/${HOST}`,
  `/ui/dashboard/%2e%2e%5c%2e%2e%5c/${HOST}`,
];

const ORIGIN = 'https://portal.example';

/**
 * What a checked return address may be: null (the caller falls back), or a path that every reading
 * keeps on the portal's origin, and that the check leaves as it is when run again.
 */
export function assertSameOriginPath(
  payload: string,
  result: string | null,
  check: (candidate: string) => string | null,
): void {
  if (result === null) return;
  const why = `${JSON.stringify(payload)} -> ${JSON.stringify(result)}`;
  assert.ok(result.startsWith('/') && !result.startsWith('//'), `a local path: ${why}`);
  assert.ok(!result.includes('\\'), `no backslash: ${why}`);
  assert.ok(
    [...result].every((c) => c.charCodeAt(0) > 0x20 && (c.charCodeAt(0) < 0x7f || c.charCodeAt(0) > 0x9f)),
    `no whitespace or control character: ${why}`,
  );
  for (const base of [`${ORIGIN}/`, `${ORIGIN}/ui/dashboard/loan-checkout/42`]) {
    assert.equal(new URL(result, base).origin, ORIGIN, `same origin from ${base}: ${why}`);
  }
  assert.equal(check(result), result, `the same when checked again: ${why}`);
}
