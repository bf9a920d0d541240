import {
  DEAD_MAIL_LISTED,
  MailIdSchema,
  operatorEndpoints,
  SENT_MAIL_LISTED,
  BorrowerEmailSchema,
} from '@customer-core/contracts';
import { usageError } from '../cli-error.js';
import { table, text, utcCell as when, validated, type Command } from '../command.js';

const USAGE = 'See: npm run cli -- mail --help';

export const mail: Command = {
  name: 'mail',
  summary: 'List the e-mail to an address, or that gave up; send it again',
  help: `Usage: npm run cli -- mail sent --email <address> [--json]
       npm run cli -- mail dead [--json]
       npm run cli -- mail resend <message id>... | --all

  sent     Lists the e-mail to the address, newest first (${SENT_MAIL_LISTED} at most): kind, delivery
           state (pending, sending, sent, dead), attempts and the last error. For a borrower who
           says it never came. Never the message's text.
  dead     Lists the e-mail that gave up after its last attempt (MAIL_MAX_ATTEMPTS), the latest
           first (${DEAD_MAIL_LISTED} at most): recipient, kind, attempts, the last error and when.
           Never the message's text: its links are one-time tokens.
  resend   Queues those messages again, due at once, with their attempts counted from zero: once
           the cause is fixed (the relay, SMTP_URL, the recipient's address). A link in a message
           may have expired meanwhile; the borrower can then ask for a new one.

Options:
  --email  With sent: the recipient's address
  --all    With resend: every message that gave up
  --json   With sent or dead: print the portal's answer as JSON`,
  options: { email: { type: 'string' }, all: { type: 'boolean' }, json: { type: 'boolean' } },
  positionals: ['sent', 'dead', 'resend'],
  async run(values, { portal, print, positionals }) {
    const [action, ...ids] = positionals;
    if (action === 'sent') {
      if (ids.length > 0 || values.all) throw usageError(`mail sent takes --email only. ${USAGE}`);
      const query = validated(BorrowerEmailSchema, { email: text(values, 'email') }, { email: '--email' });
      const { messages } = await portal.call(operatorEndpoints.sentMail, { query });
      if (values.json) return print(JSON.stringify(messages, null, 2));
      if (messages.length === 0) return print(`No e-mail to ${query.email}.`);
      const rows = messages.map((m) => [
        when(m.createdAt),
        m.kind,
        m.status,
        String(m.attempts),
        when(m.sentAt),
        (m.lastError ?? '-').replace(/\s+/g, ' ').slice(0, 80),
      ]);
      for (const line of table(
        ['QUEUED (UTC)', 'KIND', 'STATE', 'ATTEMPTS', 'SENT (UTC)', 'LAST ERROR'],
        rows,
      ))
        print(line);
      return;
    }
    if (action === 'dead') {
      if (ids.length > 0 || values.all) throw usageError(`mail dead takes no ids and no --all. ${USAGE}`);
      const { messages } = await portal.call(operatorEndpoints.deadMail, {});
      if (values.json) return print(JSON.stringify(messages, null, 2));
      if (messages.length === 0) return print('No e-mail has given up.');
      const rows = messages.map((m) => [
        m.id,
        m.recipient,
        m.kind,
        String(m.attempts),
        when(m.diedAt),
        (m.lastError ?? '-').replace(/\s+/g, ' ').slice(0, 80),
        m.resendable ? '' : '(cannot be resent)',
      ]);
      for (const line of table(
        ['MESSAGE', 'TO', 'KIND', 'ATTEMPTS', 'GAVE UP (UTC)', 'LAST ERROR', ''],
        rows,
      ))
        print(line);
      print('');
      return print(`${messages.length} message${messages.length === 1 ? '' : 's'} gave up.`);
    }
    if (action === 'resend') {
      if (values.json) throw usageError(`--json is for mail sent and mail dead. ${USAGE}`);
      if (Boolean(values.all) === ids.length > 0)
        throw usageError(`mail resend takes message ids or --all, one of them. ${USAGE}`);
      const named = ids.map((id) => validated(MailIdSchema, id, { '': id }));
      const body = values.all ? { all: true as const } : { ids: named };
      const { resent } = await portal.call(operatorEndpoints.resendDeadMail, { body });
      const notResent = named.filter((id) => !resent.includes(id));
      print(
        resent.length === 0
          ? 'Nothing queued again.'
          : `Queued ${resent.length} message${resent.length === 1 ? '' : 's'} again; they go out at once.`,
      );
      if (notResent.length > 0)
        print(`Not queued (no such message gave up, or it cannot be resent): ${notResent.join(', ')}`);
      return;
    }
    throw usageError(`mail takes sent, dead or resend. ${USAGE}`);
  },
};
