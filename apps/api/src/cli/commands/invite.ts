import { InviteBorrowerRequestSchema, operatorEndpoints } from '@customer-core/contracts';
import { requireOptions, text, validated, type Command } from '../command.js';

export const invite: Command = {
  name: 'invite',
  summary: 'Invite a borrower: creates the invitation and emails the registration link',
  help: `Usage: npm run cli -- invite --email <address> --first-name <name> --last-name <name> [--locale es-US] [--json]

Invites a borrower to register on the portal: the portal creates the invitation and emails them
the registration link. Inviting the same address again replaces the earlier link.

Options:
  --email <address>     The borrower's email address (they sign in with it)
  --first-name <name>   The borrower's first name
  --last-name <name>    The borrower's last name
  --locale <tag>        The invitation email's language: en-US (the default) or es-US
  --json                Print the portal's answer as JSON`,
  options: {
    email: { type: 'string' },
    'first-name': { type: 'string' },
    'last-name': { type: 'string' },
    locale: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(values, { portal, print }) {
    requireOptions('invite', values, ['email', 'first-name', 'last-name']);
    const request = validated(
      InviteBorrowerRequestSchema,
      {
        email: text(values, 'email'),
        firstName: text(values, 'first-name'),
        lastName: text(values, 'last-name'),
        locale: text(values, 'locale'),
      },
      { email: '--email', firstName: '--first-name', lastName: '--last-name', locale: '--locale' },
    );
    const invited = await portal.call(operatorEndpoints.invitations, { body: request });
    if (values.json) return print(JSON.stringify(invited, null, 2));
    print(`Invited ${request.firstName} ${request.lastName} <${request.email}>.`);
    print(`The registration link is on its way by email; it works until ${invited.expiresAt}.`);
  },
};
