import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientAddress } from '@customer-core/contracts/server';
import { deviceIdOf } from './device-cookie.js';

/** Where a sign-in comes from, as the request tells it. */
export interface SignInClient {
  userAgent: string | undefined;
  clientAddress: string;
  /** The browser's device id: read, and its cookie renewed, only once a session begins. */
  deviceId(): string;
}

/**
 * The routes that start a session read their client with this (behind a proxy: X-Forwarded-For). The
 * device cookie is Secure where the portal is served over https (always in production): over http (a
 * local run) the browser would not send it back.
 */
export function signInClientOf({ trustProxy, publicUrl }: { trustProxy: boolean; publicUrl: string }) {
  const secureCookies = new URL(publicUrl).protocol === 'https:';
  return (request: FastifyRequest, reply: FastifyReply): SignInClient => ({
    userAgent: request.headers['user-agent'],
    clientAddress: clientAddress(request, trustProxy),
    deviceId: () => deviceIdOf(request, reply, secureCookies),
  });
}

export type SignInClientOf = ReturnType<typeof signInClientOf>;
