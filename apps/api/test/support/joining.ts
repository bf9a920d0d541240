import assert from 'node:assert/strict';
import { operatorEndpoints } from '@customer-core/contracts';
import type { MailboxMessage } from './links.js';
import { post } from './session.js';

// What the joining tests share: the operators' credential, inviting, and reading the e-mailed links.

export const OPERATOR_SECRET = 'operator-secret-for-api-tests-only-0123456789';
export const OPERATOR_ENV = { SERVICE_CREDENTIALS: `operator:operator:${OPERATOR_SECRET}` };

export interface ApiErrorBody {
  error: string;
  message: string;
}

let addresses = 0;

/** An address no other test uses. */
export function uniqueEmail(what = 'borrower'): string {
  addresses += 1;
  return `${what}.${addresses}.${Date.now()}@example.com`;
}

/** POST of the operators' invitation call; with the operator's credential unless another is given. */
export function invite(
  baseUrl: string,
  body: unknown, // an InviteBorrowerRequest, or something hostile
  credential: string | null = OPERATOR_SECRET,
) {
  return post(
    baseUrl,
    operatorEndpoints.invitations.path,
    body,
    credential === null ? {} : { authorization: `Bearer ${credential}` },
  );
}

/** The token of the message's link to a portal page under `pagePath` (e.g. '/user-registration/'). */
export function linkTokenOf(message: MailboxMessage, pagePath: string): string {
  const pattern = new RegExp(`^https?://[^/]+${pagePath}([^/?#]+)$`);
  const token = message.links.map((link) => pattern.exec(link)?.[1]).find(Boolean);
  assert.ok(token, `a ${pagePath} link in ${JSON.stringify(message.links)}`);
  return decodeURIComponent(token);
}

/** Bodies no call should take, each answered 4xx (never 5xx). */
export const MALFORMED_BODIES: Array<{ what: string; body: string; contentType?: string }> = [
  { what: 'no JSON at all', body: '{"token": ' },
  { what: 'an array', body: '[]' },
  { what: 'null', body: 'null' },
  { what: 'a string', body: '"token"' },
  { what: 'plain text', body: 'token=abc', contentType: 'text/plain' },
  { what: 'a form', body: 'token=abc', contentType: 'application/x-www-form-urlencoded' },
];

/** POSTs a raw body (for bodies JSON.stringify would not make). */
export function postRaw(baseUrl: string, path: string, body: string, contentType = 'application/json') {
  return fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body });
}
