import {
  AddStaffUserRequestSchema,
  ChangeStaffUserRequestSchema,
  consoleEndpoints,
  STAFF_ROLES,
} from '@customer-core/contracts';
import { usageError } from '../cli-error.js';
import { table, text, validated, type Command } from '../command.js';

const USAGE = 'See: npm run cli -- staff --help';

export const staff: Command = {
  name: 'staff',
  summary: 'Manage the staff console’s users (support agents, loan officers) and their roles',
  help: `Usage: npm run cli -- staff list [--json]
       npm run cli -- staff add --email <address> --first-name <name> --last-name <name> --role <role>
       npm run cli -- staff set-role <staff id> --role <role>
       npm run cli -- staff remove <staff id>

Staff sign in to the console at /console through the identity provider, always with a second factor
(they add one at their first sign-in). Roles: support (find borrowers, see their sessions, activity
and e-mail; unlock, resend an invitation, end sessions, reset second factors) and admin (all of
that, and invitations, loans, the audit trail, webhooks, staff and keys).

  list       The staff users and their roles
  add        Adds a staff user and e-mails them a link to set their password
  set-role   Gives a staff user another role; their console sessions end
  remove     Takes the staff role away (the user stays, without console access); their sessions end

With a hosted Okta org, staff are managed there instead: put them in the groups CONSOLE_SUPPORT_GROUP
and CONSOLE_ADMIN_GROUP name (see the README).

Roles: ${STAFF_ROLES.join(', ')}.`,
  options: {
    email: { type: 'string' },
    'first-name': { type: 'string' },
    'last-name': { type: 'string' },
    role: { type: 'string' },
    json: { type: 'boolean' },
  },
  positionals: ['list', 'add', 'set-role', 'remove'],
  async run(values, { portal, print, positionals }) {
    const [action, id, ...extra] = positionals;
    if (extra.length > 0) throw usageError(`staff ${action} takes at most one id. ${USAGE}`);
    const needsId = action === 'set-role' || action === 'remove';
    if (needsId !== (id !== undefined))
      throw usageError(
        needsId
          ? `staff ${action} needs a staff id. ${USAGE}`
          : `staff ${action ?? ''} takes no id. ${USAGE}`,
      );

    switch (action) {
      case 'list': {
        const { staff: users } = await portal.call(consoleEndpoints.staffUsers, {});
        if (values.json) return print(JSON.stringify(users, null, 2));
        if (users.length === 0) return print('No staff user yet. Add one: npm run cli -- staff add …');
        const rows = users.map((u) => [u.id, u.email, `${u.firstName} ${u.lastName}`, u.role]);
        for (const line of table(['STAFF ID', 'EMAIL', 'NAME', 'ROLE'], rows)) print(line);
        return;
      }
      case 'add': {
        const body = validated(
          AddStaffUserRequestSchema,
          {
            email: text(values, 'email'),
            firstName: text(values, 'first-name'),
            lastName: text(values, 'last-name'),
            role: text(values, 'role'),
          },
          { email: '--email', firstName: '--first-name', lastName: '--last-name', role: '--role' },
        );
        const added = await portal.call(consoleEndpoints.addStaffUser, { body });
        print(`Added ${added.email} (${added.role}), staff id ${added.id}.`);
        print(
          'They were e-mailed a link to set their password; at their first sign-in they add a second factor.',
        );
        return;
      }
      case 'set-role':
      case 'remove': {
        const body = validated(
          ChangeStaffUserRequestSchema,
          { role: action === 'remove' ? null : text(values, 'role') },
          { role: '--role' },
        );
        await portal.call(consoleEndpoints.changeStaffUser, { params: { staffId: id! }, body });
        return print(
          body.role
            ? `Staff user ${id} is now ${body.role}; their console sessions ended.`
            : `Staff user ${id} no longer has console access; their console sessions ended.`,
        );
      }
      default:
        throw usageError(`staff needs one of: list, add, set-role, remove. ${USAGE}`);
    }
  },
};

export const resendInvitation: Command = {
  name: 'resend-invitation',
  summary: 'Send a borrower who has not registered their invitation again, with a new link',
  help: `Usage: npm run cli -- resend-invitation --email <address> [--reason <why>]

Sends the borrower's invitation again, with the names it was sent with and a new link; the earlier
link stops working.

Options:
  --email <address>     The borrower's email address`,
  options: { email: { type: 'string' } },
  async run(values, { portal, print }) {
    const body = validated(
      consoleEndpoints.resendInvitation.body,
      { email: text(values, 'email') },
      { email: '--email' },
    );
    const sent = await portal.call(consoleEndpoints.resendInvitation, { body });
    print(`Sent the invitation to ${sent.email} again; its link works until ${sent.expiresAt}.`);
  },
};
