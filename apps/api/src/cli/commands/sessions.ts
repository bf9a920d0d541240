import {
  operatorEndpoints,
  OperatorSessionsQuerySchema,
  SESSION_METHOD_LABELS,
  SessionIdSchema,
} from '@customer-core/contracts';
import { usageError } from '../cli-error.js';
import { deviceCell, requireOptions, table, text, validated, type Command } from '../command.js';

export const sessions: Command = {
  name: 'sessions',
  summary: "List a borrower's sign-in sessions, or end one or all of them",
  help: `Usage: npm run cli -- sessions --email <address> [--revoke <session id> | --all] [--json]

Lists the borrower's active sign-in sessions, newest first: when each began and was last active,
how it began, the device and the client's network. Ending a session signs that browser out at once,
on every instance, and ends its identity-provider session.

Options:
  --email <address>     The borrower's email address
  --revoke <id>         End this session (an id from the list)
  --all                 End every session of the borrower
  --json                Print the portal's answer as JSON`,
  options: {
    email: { type: 'string' },
    revoke: { type: 'string' },
    all: { type: 'boolean' },
    json: { type: 'boolean' },
  },
  async run(values, { portal, print }) {
    requireOptions('sessions', values, ['email']);
    const { email } = validated(
      OperatorSessionsQuerySchema,
      { email: text(values, 'email') },
      { email: '--email' },
    );
    const revoke = text(values, 'revoke');
    if (revoke !== undefined && values.all)
      throw usageError('sessions takes --revoke or --all, not both. See: npm run cli -- sessions --help');

    if (revoke !== undefined) {
      const sessionId = validated(SessionIdSchema, revoke, { '': '--revoke' });
      // Only a session of this borrower: an id from another's list is refused as unknown.
      const listed = await portal.call(operatorEndpoints.sessions, { query: { email } });
      if (!listed.sessions.some((session) => session.id === sessionId))
        throw usageError(
          `${email} has no active session ${sessionId}. See: npm run cli -- sessions --email ${email}`,
        );
      const ended = await portal.call(operatorEndpoints.endSession, { params: { sessionId } });
      if (values.json) return print(JSON.stringify(ended, null, 2));
      return print(`Ended session ${sessionId} of ${email}.`);
    }

    if (values.all) {
      const ended = await portal.call(operatorEndpoints.endAllSessions, { body: { email } });
      if (values.json) return print(JSON.stringify(ended, null, 2));
      return print(`Ended every session of ${email} (${ended.ended} active).`);
    }

    const { sessions: list } = await portal.call(operatorEndpoints.sessions, { query: { email } });
    if (values.json) return print(JSON.stringify(list, null, 2));
    if (list.length === 0) return print(`${email} has no active sessions.`);
    const rows = list.map((s) => [
      s.id,
      s.createdAt.slice(0, 19).replace('T', ' '),
      s.lastActiveAt.slice(0, 19).replace('T', ' '),
      s.method ? SESSION_METHOD_LABELS[s.method] : '-',
      deviceCell(s.device),
      s.approximateAddress ?? '-',
    ]);
    for (const line of table(
      ['SESSION', 'SIGNED IN (UTC)', 'LAST ACTIVE (UTC)', 'HOW', 'DEVICE', 'NETWORK'],
      rows,
    ))
      print(line);
    print('');
    print(`${list.length} active session${list.length === 1 ? '' : 's'}.`);
  },
};
