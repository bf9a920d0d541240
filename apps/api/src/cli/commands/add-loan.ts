import { AddLoanRequestSchema, operatorEndpoints } from '@customer-core/contracts';
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

export const LOAN_OPTION_OF = {
  borrowerEmail: '--email',
  reference: '--reference',
  product: '--product',
  amountCents: '--amount',
  balanceCents: '--balance',
  status: '--status',
  'nextPayment.dueOn': '--next-payment-date',
  'nextPayment.amountCents': '--next-payment-amount',
};

export const addLoan: Command = {
  name: 'add-loan',
  summary: "Add a loan for a borrower's email address",
  help: `Usage: npm run cli -- add-loan --email <address> --reference <LN-...> --product <name> --amount <dollars>
         [--balance <dollars>] [--status <status>]
         [--next-payment-date <YYYY-MM-DD> --next-payment-amount <dollars>] [--json]

Adds a loan for the borrower with this email address. A borrower who is not on the portal yet is
created, and sees the loan once they register or first sign in. An ACTIVE loan comes with its closing
documents, which the borrower reviews and signs at checkout.

Options:
  --email <address>               The borrower's email address
  --reference <LN-...>            The loan number, e.g. LN-204518 (capital letters, digits, dashes)
  --product <name>                The loan product, e.g. "Term loan"
  --amount <dollars>              The amount lent, e.g. 250000 or 1250.50
  --balance <dollars>             The balance outstanding (default: the amount)
  --status <status>               ACTIVE (default), PAST DUE, PAID, CLOSED LOST or HIDDEN
                                  (HIDDEN loans are never shown to the borrower)
  --next-payment-date <date>      When the next payment is due, YYYY-MM-DD
  --next-payment-amount <dollars> How much the next payment is (give both next-payment options or neither)
  --json                          Print the portal's answer as JSON`,
  options: {
    email: { type: 'string' },
    reference: { type: 'string' },
    product: { type: 'string' },
    amount: { type: 'string' },
    balance: { type: 'string' },
    status: { type: 'string' },
    'next-payment-date': { type: 'string' },
    'next-payment-amount': { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(values, { portal, print }) {
    requireOptions('add-loan', values, ['email', 'reference', 'product', 'amount']);
    const amountCents = centsOption(values, 'amount');
    const request = validated(
      AddLoanRequestSchema,
      {
        borrowerEmail: text(values, 'email'),
        reference: text(values, 'reference'),
        product: text(values, 'product'),
        amountCents,
        balanceCents: centsOption(values, 'balance') ?? amountCents,
        status: statusOption(values, 'status') ?? 'ACTIVE',
        nextPayment: nextPaymentOption(values) ?? null,
      },
      LOAN_OPTION_OF,
    );
    const loan = await portal.call(operatorEndpoints.loans, { body: request });
    if (values.json) return print(JSON.stringify(loan, null, 2));
    print(`Added loan ${loan.reference}.`);
    for (const line of describeLoan(loan)) print(line);
  },
};
