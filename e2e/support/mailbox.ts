import assert from 'node:assert/strict';

// The dev mailbox (GET /dev/mailbox/messages?to=…, newest first): where the test server delivers mail.

export interface MailboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  createdAt: string;
}

export async function inbox(baseUrl: string, to: string): Promise<MailboxMessage[]> {
  const response = await fetch(`${baseUrl}/dev/mailbox/messages?to=${encodeURIComponent(to)}`);
  assert.equal(response.status, 200, 'the dev mailbox answers');
  return (await response.json()) as MailboxMessage[];
}

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

/** The path (with the token) of the message's link to a portal page, e.g. '/auth/password-reset/'. */
export function linkPath(message: MailboxMessage, pagePrefix: string): string {
  const path = message.links.map((link) => new URL(link).pathname).find((p) => p.startsWith(pagePrefix));
  assert.ok(path, `a ${pagePrefix} link in ${JSON.stringify(message.links)}`);
  return path;
}
