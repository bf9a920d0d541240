import { operatorEndpoints, BorrowerEmailSchema } from '@customer-core/contracts';
import { requireOptions, text, validated, type Command } from '../command.js';

export const unlock: Command = {
  name: 'unlock',
  summary: "Lift a borrower's sign-in lockouts, once you know the caller is them",
  help: `Usage: npm run cli -- unlock --email <address> [--reason <why>]

Lifts the borrower's sign-in lockouts: from every address they were locked out from, and
account-wide. Their password is unchanged; if someone else was guessing it, a password reset is the
better help. The call and its reason are in the audit trail.

Options:
  --email <address>     The borrower's email address
  --reason <why>        Why, e.g. "Caller verified by date of birth and loan number, ticket 4411"`,
  options: { email: { type: 'string' } },
  async run(values, { portal, print }) {
    requireOptions('unlock', values, ['email']);
    const body = validated(BorrowerEmailSchema, { email: text(values, 'email') }, { email: '--email' });
    await portal.call(operatorEndpoints.unlockBorrower, { body });
    print(`${body.email} can sign in again from every address.`);
  },
};

export const resetFactors: Command = {
  name: 'reset-factors',
  summary: "Remove a borrower's second factors after a lost phone, once you know the caller is them",
  help: `Usage: npm run cli -- reset-factors --email <address> --reason <why>

Removes every second factor of the borrower (authenticator apps, email codes, passkeys, and recovery
codes with them), signs them out everywhere and e-mails them that support did so. They then sign in
with their password and set up a second step again. The reason is required, and is kept with the
call in the audit trail.

Options:
  --email <address>     The borrower's email address
  --reason <why>        Why, e.g. "Lost phone; caller verified by loan number and date of birth, ticket 4412"`,
  options: { email: { type: 'string' } },
  async run(values, { portal, print }) {
    requireOptions('reset-factors', values, ['email']);
    const body = validated(BorrowerEmailSchema, { email: text(values, 'email') }, { email: '--email' });
    const { factorsRemoved, sessionsEnded } = await portal.call(operatorEndpoints.resetSecondFactors, {
      body,
    });
    print(
      `Removed ${factorsRemoved} second factor${factorsRemoved === 1 ? '' : 's'} of ${body.email} and ended ${sessionsEnded} session${sessionsEnded === 1 ? '' : 's'}; they were told by e-mail.`,
    );
  },
};
