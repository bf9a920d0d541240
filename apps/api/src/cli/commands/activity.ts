import {
  MAX_ACTIVITY_PAGE,
  OperatorSessionsQuerySchema,
  operatorEndpoints,
  SECURITY_ACTIVITY_DAYS,
  securityEventLabel,
  SESSION_METHOD_LABELS,
  type SecurityActivityPage,
  type SecurityEvent,
  type SessionEndedBy,
} from '@customer-core/contracts';
import { deviceCell, requireOptions, table, text, validated, type Command } from '../command.js';

// Who ended a session, as an operator reads it (the borrower's page says "By you").
const ENDED_BY: Record<SessionEndedBy, string> = {
  borrower: 'By the borrower',
  operator: 'By an operator',
  password_change: 'By a password change',
  unrecognized_sign_in: 'By the borrower, reporting a sign-in they didn’t recognize',
  email_change: 'By an email address change (begun with a link to the old address)',
};

function detail(event: SecurityEvent): string {
  if (event.method) return SESSION_METHOD_LABELS[event.method];
  if (event.endedBy) return ENDED_BY[event.endedBy];
  if (event.attempts) return `${event.attempts} in a row`;
  return '-';
}

export const activity: Command = {
  name: 'activity',
  summary: "List a borrower's security activity of the last 90 days",
  help: `Usage: npm run cli -- activity --email <address> [--json]

Lists what happened to the borrower's account in the last ${SECURITY_ACTIVITY_DAYS} days, newest first:
sign-ins, sessions ended (and by whom), password changes, failed sign-in attempts and lockouts,
each with the device and the client's network. Never a secret or a full address.

Options:
  --email <address>     The borrower's email address
  --json                Print the events as JSON`,
  options: {
    email: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(values, { portal, print }) {
    requireOptions('activity', values, ['email']);
    const { email } = validated(
      OperatorSessionsQuerySchema,
      { email: text(values, 'email') },
      { email: '--email' },
    );
    const events: SecurityEvent[] = [];
    let after: string | null = null;
    do {
      const page: SecurityActivityPage = await portal.call(operatorEndpoints.activity, {
        query: { email, limit: MAX_ACTIVITY_PAGE, after: after ?? undefined },
      });
      events.push(...page.events);
      after = page.next;
    } while (after);

    if (values.json) return print(JSON.stringify(events, null, 2));
    if (events.length === 0)
      return print(`${email} has no security activity in the last ${SECURITY_ACTIVITY_DAYS} days.`);
    const rows = events.map((e) => [
      e.occurredAt.slice(0, 19).replace('T', ' '),
      securityEventLabel(e),
      detail(e),
      deviceCell(e.device),
      e.approximateAddress ?? '-',
    ]);
    for (const line of table(['WHEN (UTC)', 'WHAT', 'DETAIL', 'DEVICE', 'NETWORK'], rows)) print(line);
    print('');
    print(`${events.length} event${events.length === 1 ? '' : 's'}.`);
  },
};
