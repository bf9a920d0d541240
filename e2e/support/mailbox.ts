import assert from 'node:assert/strict';
import { inbox, type MailboxMessage } from '@customer-core/api/testing';

// The dev mailbox (GET /dev/mailbox/messages?to=…, newest first): where the test server delivers mail.

export { inbox, type MailboxMessage };

/** Waits until `to` holds `count` messages (delivery is asynchronous) and answers the newest. */
export async function waitForMail(
  baseUrl: string,
  to: string,
  count = 1,
  timeoutMs = 15_000,
): Promise<MailboxMessage> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const messages = await inbox(baseUrl, to);
    if (messages.length >= count && messages[0]) return messages[0];
    if (Date.now() > until) throw new Error(`no message #${count} for ${to} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Waits until `to` holds a message whose subject matches `subject` (other mail may come first); the newest such. */
export async function waitForMailWithSubject(
  baseUrl: string,
  to: string,
  subject: RegExp,
  timeoutMs = 15_000,
): Promise<MailboxMessage> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = (await inbox(baseUrl, to)).find((message) => subject.test(message.subject));
    if (found) return found;
    if (Date.now() > until)
      throw new Error(`no message "${subject.source}" for ${to} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The path (with the token) of the message's link to a portal page, e.g. '/auth/password-reset/'. */
export function linkPath(message: MailboxMessage, pagePrefix: string): string {
  const path = message.links.map((link) => new URL(link).pathname).find((p) => p.startsWith(pagePrefix));
  assert.ok(path, `a ${pagePrefix} link in ${JSON.stringify(message.links)}`);
  return path;
}
