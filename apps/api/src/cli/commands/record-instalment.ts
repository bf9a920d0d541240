import {
  operatorEndpoints,
  LoanReferenceSchema,
  RecordInstalmentRequestSchema,
} from '@customer-core/contracts';
import { centsOption, requireOptions, table, text, validated, type Command } from '../command.js';
import { dollarsOf } from '../money.js';

const OPTION_OF = { dueOn: '--due-on', amountCents: '--amount', paidOn: '--paid-on' };

export const recordInstalment: Command = {
  name: 'record-instalment',
  summary: "Record an instalment of a loan's payment schedule, or its payment",
  help: `Usage: npm run cli -- record-instalment --reference <LN-...> --due-on <YYYY-MM-DD> --amount <dollars>
         [--paid-on <YYYY-MM-DD>] [--json]

Records one instalment of the loan's payment schedule: a new due day, or a change to the instalment
due that day. Give --paid-on once the borrower has paid it. The borrower's loan page shows the
schedule, and an unpaid instalment whose day has passed as past due.

Options:
  --reference <LN-...>   The loan
  --due-on <date>        The day the instalment is due, YYYY-MM-DD
  --amount <dollars>     How much is due that day, e.g. 5200
  --paid-on <date>       The day it was paid, YYYY-MM-DD (leave out while unpaid)
  --json                 Print the portal's answer as JSON`,
  options: {
    reference: { type: 'string' },
    'due-on': { type: 'string' },
    amount: { type: 'string' },
    'paid-on': { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(values, { portal, print }) {
    requireOptions('record-instalment', values, ['reference', 'due-on', 'amount']);
    const reference = validated(LoanReferenceSchema, text(values, 'reference'), { '': '--reference' });
    const request = validated(
      RecordInstalmentRequestSchema,
      {
        dueOn: text(values, 'due-on'),
        amountCents: centsOption(values, 'amount'),
        paidOn: text(values, 'paid-on') ?? null,
      },
      OPTION_OF,
    );
    const schedule = await portal.call(operatorEndpoints.loanInstalments, {
      params: { reference },
      body: request,
    });
    if (values.json) return print(JSON.stringify(schedule, null, 2));
    print(`Recorded the instalment of loan ${reference} due ${request.dueOn}. Its schedule:`);
    const rows = schedule.instalments.map((i) => [
      i.dueOn,
      dollarsOf(i.amountCents),
      i.state === 'paid' ? `paid ${i.paidOn}` : i.state === 'past_due' ? 'past due' : 'upcoming',
    ]);
    for (const line of table(['due on', 'amount', 'state'], rows)) print(`  ${line}`);
  },
};
