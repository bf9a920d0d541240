import { dataRightsEndpoints, BorrowerEmailSchema, LegalHoldRequestSchema } from '@customer-core/contracts';
import { usageError } from '../cli-error.js';
import { requireOptions, text, validated, type Command } from '../command.js';

export const eraseBorrower: Command = {
  name: 'erase-borrower',
  summary: "Erase what the law allows of a borrower's data, saying what was kept and why",
  help: `Usage: npm run cli -- erase-borrower --email <address> [--reason <text>]

Erases the borrower's sign-in account at the identity provider (password, second factors, passkeys,
recovery codes, sessions), their sessions, security activity, devices, one-time links and the
records of e-mails sent to them, and their loan applications over 25 months old (Regulation B). Their
loans, with documents, signatures and consents, younger applications and the audit trail are kept,
each with the reason. Refused while a legal hold keeps their data (see legal-hold). Export their data
first if they asked for a copy (export-borrower).

Options:
  --email <address>     The borrower's email address`,
  options: { email: { type: 'string' } },
  async run(values, { portal, print }) {
    requireOptions('erase-borrower', values, ['email']);
    const body = validated(BorrowerEmailSchema, { email: text(values, 'email') }, { email: '--email' });
    const report = await portal.call(dataRightsEndpoints.eraseBorrower, { body });
    print(`Erased, of ${body.email}:`);
    for (const line of report.erased) print(`  - ${line}`);
    print('Kept:');
    for (const { what, why } of report.kept) print(`  - ${what}\n    Why: ${why}`);
  },
};

export const legalHold: Command = {
  name: 'legal-hold',
  summary: "Set or lift the legal hold that keeps all of a borrower's data",
  help: `Usage: npm run cli -- legal-hold --email <address> --hold <why> | --lift

A legal hold (litigation, an examination) keeps all of the borrower's data: erase-borrower is
refused while it holds. It is in the audit trail with who set or lifted it.

Options:
  --email <address>     The borrower's email address
  --hold <why>          Set the hold, for this reason (one line)
  --lift                Lift it`,
  options: { email: { type: 'string' }, hold: { type: 'string' }, lift: { type: 'boolean' } },
  async run(values, { portal, print }) {
    requireOptions('legal-hold', values, ['email']);
    const why = text(values, 'hold');
    if ((why === undefined) === !values.lift)
      throw usageError(
        'legal-hold takes --hold <why> or --lift, one of them. See: npm run cli -- legal-hold --help',
      );
    const body = validated(
      LegalHoldRequestSchema,
      why === undefined
        ? { email: text(values, 'email'), hold: false }
        : { email: text(values, 'email'), hold: true, reason: why },
      { email: '--email', reason: '--hold' },
    );
    await portal.call(dataRightsEndpoints.legalHold, { body });
    print(
      body.hold
        ? `A legal hold now keeps ${body.email}'s data.`
        : `The legal hold on ${body.email}'s data is lifted.`,
    );
  },
};
