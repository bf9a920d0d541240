import type { DevMailboxEntry } from '../src/mail/routes/dev-mailbox.js';
import { runningTestServers } from './test-server.js';

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
 * sharing a database deliver each other's mail) ends a pass, never on a timer. The time-out only ends
 * a wait that nothing would.
 */
export async function waitForMail(
  baseUrl: string,
  to: string,
  { count = 1, subject, timeoutMs = 15_000 }: { count?: number; subject?: RegExp; timeoutMs?: number } = {},
): Promise<MailboxMessage[]> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timed out'>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), timeoutMs);
  });
  try {
    for (;;) {
      const servers = runningTestServers();
      if (!servers.some((server) => server.baseUrl === baseUrl))
        throw new Error(`No test server of this process serves ${baseUrl}: its passes cannot be awaited.`);
      // Before reading: a pass that ends while the mailbox is read is not missed.
      const passed = Promise.race(servers.map((server) => server.server.mail.afterPass()));
      const messages = (await inbox(baseUrl, to)).filter((m) => !subject || subject.test(m.subject));
      if (messages.length >= count) return messages;
      if ((await Promise.race([passed, timedOut])) === 'timed out') {
        const which = subject ? ` "${subject.source}"` : '';
        throw new Error(`no message${which} #${count} for ${to} within ${timeoutMs} ms`);
      }
    }
  } finally {
    clearTimeout(timer);
  }
}
