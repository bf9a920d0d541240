import assert from 'node:assert/strict';
import { inbox, waitForMail as waitForMessages, type MailboxMessage } from '@customer-core/api/testing';

// The dev mailbox (GET /dev/mailbox/messages?to=…, newest first): where the test server delivers mail.

export { inbox, type MailboxMessage };

/** Waits until `to` holds `count` messages (delivery is asynchronous) and answers the newest. */
export async function waitForMail(baseUrl: string, to: string, count = 1): Promise<MailboxMessage> {
  return (await waitForMessages(baseUrl, to, { count }))[0]!;
}

/** Waits until `to` holds a message whose subject matches `subject` (other mail may come first); the newest such. */
export async function waitForMailWithSubject(
  baseUrl: string,
  to: string,
  subject: RegExp,
): Promise<MailboxMessage> {
  return (await waitForMessages(baseUrl, to, { subject }))[0]!;
}

/** The path (with the token) of the message's link to a portal page, e.g. '/auth/password-reset/'. */
export function linkPath(message: MailboxMessage, pagePrefix: string): string {
  const path = message.links.map((link) => new URL(link).pathname).find((p) => p.startsWith(pagePrefix));
  assert.ok(path, `a ${pagePrefix} link in ${JSON.stringify(message.links)}`);
  return path;
}
