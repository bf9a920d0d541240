import {
  operatorEndpoints,
  LoanReferenceSchema,
  UpdateLoanRequestSchema,
  type UpdateLoanRequest,
} from '@customer-core/contracts';
import { usageError } from '../cli-error.js';
import {
  centsOption,
  nextPaymentOption,
  requireOptions,
  statusOption,
  text,
  validated,
  type Command,
} from '../command.js';
import { describeLoan } from '../loan-output.js';
import { LOAN_OPTION_OF } from './add-loan.js';

export const updateLoan: Command = {
  name: 'update-loan',
  summary: 'Change the terms of a loan',
  help: `Usage: npm run cli -- update-loan --reference <LN-...> [--status <status>] [--balance <dollars>]
         [--next-payment-date <YYYY-MM-DD> --next-payment-amount <dollars> | --no-next-payment]
         [--product <name>] [--amount <dollars>] [--json]

Changes the terms given; the others stay as they are. Until the borrower starts the checkout, an
ACTIVE loan's closing documents are rewritten to match its new terms.

Options:
  --reference <LN-...>            The loan to change
  --status <status>               ACTIVE, PAST DUE, PAID, CLOSED LOST or HIDDEN
  --balance <dollars>             The balance outstanding, e.g. 212480.35
  --next-payment-date <date>      When the next payment is due, YYYY-MM-DD
  --next-payment-amount <dollars> How much the next payment is (give both next-payment options)
  --no-next-payment               No payment is due (e.g. a paid loan)
  --product <name>                The loan product
  --amount <dollars>              The amount lent
  --json                          Print the portal's answer as JSON`,
  options: {
    reference: { type: 'string' },
    status: { type: 'string' },
    balance: { type: 'string' },
    'next-payment-date': { type: 'string' },
    'next-payment-amount': { type: 'string' },
    'no-next-payment': { type: 'boolean' },
    product: { type: 'string' },
    amount: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(values, { portal, print }) {
    requireOptions('update-loan', values, ['reference']);
    const reference = validated(LoanReferenceSchema, text(values, 'reference'), { '': '--reference' });
    const nextPayment = nextPaymentOption(values);
    if (nextPayment && values['no-next-payment'])
      throw usageError(
        'Give either --no-next-payment or the next payment (--next-payment-date and --next-payment-amount), not both.',
      );
    const changes: Record<string, unknown> = {
      product: text(values, 'product'),
      amountCents: centsOption(values, 'amount'),
      balanceCents: centsOption(values, 'balance'),
      status: statusOption(values, 'status'),
      nextPayment: values['no-next-payment'] ? null : nextPayment,
    };
    for (const key of Object.keys(changes)) if (changes[key] === undefined) delete changes[key];
    if (Object.keys(changes).length === 0)
      throw usageError(
        'update-loan changes nothing: give --status, --balance, --next-payment-date and --next-payment-amount, --no-next-payment, --product or --amount.',
      );
    const request: UpdateLoanRequest = validated(UpdateLoanRequestSchema, changes, LOAN_OPTION_OF);
    const loan = await portal.call(operatorEndpoints.loan, { params: { reference }, body: request });
    if (values.json) return print(JSON.stringify(loan, null, 2));
    print(`Updated loan ${loan.reference}.`);
    for (const line of describeLoan(loan)) print(line);
  },
};
