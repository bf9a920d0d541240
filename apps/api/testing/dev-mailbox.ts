import type { DevMailboxEntry } from '../src/mail/routes/dev-mailbox.js';
import { runningTestServers } from './test-server.js';
import { untilAfter } from './until-after.js';

export type MailboxMessage = DevMailboxEntry;

/** The dev mailbox's messages for one recipient, newest first: where a test server delivers mail. */
export async function inbox(baseUrl: string, to: string): Promise<MailboxMessage[]> {
  const response = await fetch(`${baseUrl}/dev/mailbox/messages?to=${encodeURIComponent(to)}`);
  if (response.status !== 200) throw new Error(`the dev mailbox answered ${response.status}`);
  return (await response.json()) as MailboxMessage[];
}

/**
 * Waits until `to` holds `count` messages (of those whose subject matches `subject`, when given) and
 * answers them, newest first, from a test server of this process. Delivery is asynchronous: the
 * mailbox is read again each time a mail worker of this process's test servers (any of them: instances
 * sharing a database deliver each other's mail) ends a pass.
 */
export async function waitForMail(
  baseUrl: string,
  to: string,
  { count = 1, subject, timeoutMs }: { count?: number; subject?: RegExp; timeoutMs?: number } = {},
): Promise<MailboxMessage[]> {
  const servers = runningTestServers();
  if (!servers.some((server) => server.baseUrl === baseUrl))
    throw new Error(`No test server of this process serves ${baseUrl}: its passes cannot be awaited.`);
  return untilAfter(
    `${count} message(s)${subject ? ` "${subject.source}"` : ''} for ${to}`,
    () => Promise.race(runningTestServers().map((server) => server.server.mail.afterPass())),
    async () => {
      const messages = (await inbox(baseUrl, to)).filter((m) => !subject || subject.test(m.subject));
      return messages.length >= count && messages;
    },
    timeoutMs,
  );
}
