import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/cookie'; // request.server.parseCookie, reply.setCookie

/**
 * A long-lived, random identifier of the browser (like Okta's device token), so that a sign-in from
 * a browser the borrower has not used before can be told to them. Set by the portal on its own origin:
 * sign-ins by e-mailed link never reach the identity provider, and a hosted org's cookie lives on the
 * org's domain. It identifies a browser, not a person, and proves nothing: only its hash is stored.
 */
export const DEVICE_COOKIE = 'cc_device';
/** How long the cookie lives, renewed at each sign-in: Chromium caps a cookie's life at 400 days. */
export const DEVICE_COOKIE_DAYS = 400;
const WELL_FORMED = /^[A-Za-z0-9_-]{43}$/;

/** The browser's device id: the cookie's, renewed for another 400 days, or a new one. */
export function deviceIdOf(request: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const header = request.headers.cookie;
  const presented = header ? request.server.parseCookie(header)[DEVICE_COOKIE] : undefined;
  const deviceId =
    presented && WELL_FORMED.test(presented) ? presented : randomBytes(32).toString('base64url');
  reply.setCookie(DEVICE_COOKIE, deviceId, {
    path: '/api/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: DEVICE_COOKIE_DAYS * 24 * 60 * 60,
  });
  return deviceId;
}
