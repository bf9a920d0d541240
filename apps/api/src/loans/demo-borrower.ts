import type { LoanStatus } from '@customer-core/contracts';
import type { BorrowerRepository } from '../borrowers/borrower-repository.js';
import type { DirectoryUser } from '../identity/directory.js';
import { writeStandardDocuments } from './loan-book.js';
import type { LoanRepository } from './loan-repository.js';
import { today } from './loan-schedule.js';
import type { Lender } from './standard-documents.js';

/** The borrower every embedded (non-production) installation starts with, so a newcomer can sign in at once. */
export const DEMO_BORROWER = {
  login: 'demo@example.com',
  password: 'Demo-Borrower-1',
  firstName: 'Dana',
  lastName: 'Demo',
} as const;

export interface DemoLoan {
  reference: string;
  product: string;
  status: LoanStatus;
  amountCents: number;
  balanceCents: number;
  nextPayment: { dueOn: string; amountCents: number } | null;
  /** The payment schedule: instalments by due day (YYYY-MM-DD), the first `paidUpTo` paid on the day. */
  schedule: { amountCents: number[]; dueOn: string[]; paidUpTo: number };
}

/** Monthly due days from `first` days from today, `count` of them. */
const monthly = (first: number, count: number) => Array.from({ length: count }, (_, i) => first + 30 * i);

/** The day in the lender's calendar this many days from `now`. */
function dayFrom(now: Date, days: number): string {
  const date = new Date(now);
  date.setUTCDate(date.getUTCDate() + days);
  return today(date);
}

/**
 * A demo loan whose figures add up, as a borrower checks them: the amount lent in equal monthly
 * instalments (the last one takes the cents left over), the first `paid` of them paid on time, the
 * balance what is left, and the next payment the first instalment still to come.
 */
function demoLoan(
  now: Date,
  terms: Pick<DemoLoan, 'reference' | 'product' | 'status' | 'amountCents'>,
  plan: { instalments: number; firstDueInDays: number; paid: number } | null,
): DemoLoan {
  if (!plan)
    return {
      ...terms,
      balanceCents: 0,
      nextPayment: null,
      schedule: { amountCents: [], dueOn: [], paidUpTo: 0 },
    };
  const each = Math.round(terms.amountCents / plan.instalments);
  const amounts = Array.from({ length: plan.instalments }, (_, i) =>
    i < plan.instalments - 1 ? each : terms.amountCents - each * (plan.instalments - 1),
  );
  const dueInDays = monthly(plan.firstDueInDays, plan.instalments);
  const paidCents = amounts.slice(0, plan.paid).reduce((sum, cents) => sum + cents, 0);
  const next = dueInDays.findIndex((days, i) => i >= plan.paid && days >= 0);
  const dueOn = dueInDays.map((days) => dayFrom(now, days));
  return {
    ...terms,
    balanceCents: terms.amountCents - paidCents,
    nextPayment: next < 0 ? null : { dueOn: dueOn[next]!, amountCents: amounts[next]! },
    schedule: { amountCents: amounts, dueOn, paidUpTo: plan.paid },
  };
}

/**
 * The demo borrower's loans as seeded `now`: one in each status, so every state of the portal can be
 * seen. The active loan's first payment is ahead, the past-due one missed its fifth 12 days ago. Every
 * date of a loan comes from the one `now` (a process seeding after midnight seeds the new day's
 * dates, its next payment and its schedule alike).
 */
export const demoLoans = (now = new Date()): DemoLoan[] => [
  // Just closing: the first instalment is ahead.
  demoLoan(
    now,
    { reference: 'LN-DEMO-1', product: 'Term loan', status: 'ACTIVE', amountCents: 25_000_000 },
    { instalments: 24, firstDueInDays: 24, paid: 0 },
  ),
  // Four paid on time, then the one due 12 days ago missed.
  demoLoan(
    now,
    { reference: 'LN-DEMO-2', product: 'Equipment financing', status: 'PAST DUE', amountCents: 8_500_000 },
    { instalments: 36, firstDueInDays: -132, paid: 4 },
  ),
  demoLoan(
    now,
    { reference: 'LN-DEMO-3', product: 'Working capital loan', status: 'PAID', amountCents: 5_000_000 },
    { instalments: 12, firstDueInDays: -400, paid: 12 },
  ),
  demoLoan(
    now,
    {
      reference: 'LN-DEMO-4',
      product: 'Business line of credit',
      status: 'CLOSED LOST',
      amountCents: 3_000_000,
    },
    null,
  ),
  demoLoan(
    now,
    { reference: 'LN-DEMO-5', product: 'Revenue-based financing', status: 'HIDDEN', amountCents: 12_000_000 },
    null,
  ),
];

/** The bundled identity provider, whose users keep the demo borrower's identity (server.ts hands it over). */
export interface DemoIdentityProvider {
  users: {
    /** The user with this login, created with this password if there is none (one that exists is kept). */
    ensure(
      user: typeof DEMO_BORROWER & { locale: string; timeZone: string },
    ): Promise<Omit<DirectoryUser, 'locale'>>;
  };
}

export interface DemoSeedOptions {
  /** The bundled identity provider's issuer: the demo borrower's identity is (issuer, user id). */
  issuer: string;
  lender: Lender;
}

/**
 * The demo borrower: the identity in the bundled provider, the borrower it signs in as, and their loans
 * (each with its closing documents). Idempotent, and safe when two instances start together:
 * what exists is left as it is, and a loan's documents are written only by the instance that inserted it.
 */
export async function seedDemoBorrower(
  idp: DemoIdentityProvider,
  { borrowers, loans }: { borrowers: BorrowerRepository; loans: LoanRepository },
  { issuer, lender }: DemoSeedOptions,
): Promise<void> {
  const user = await idp.users.ensure({ ...DEMO_BORROWER, locale: 'en_US', timeZone: 'America/New_York' });
  const borrower = await borrowers.upsertByIdentity({
    issuer,
    subject: user.id,
    email: user.login,
    firstName: user.firstName,
    lastName: user.lastName,
  });
  await loans.transaction(async (tx) => {
    for (const loan of demoLoans()) {
      const loanId = await tx.insert(borrower.id, loan);
      if (!loanId) continue;
      // Every loan has its documents, whatever its status (a HIDDEN one's never leave).
      await writeStandardDocuments(tx, loanId, loan, lender);
      const { amountCents, dueOn, paidUpTo } = loan.schedule;
      await tx.addInstalments(
        loanId,
        dueOn.map((day, i) => ({
          dueOn: day,
          amountCents: amountCents[i]!,
          paidOn: i < paidUpTo ? day : null,
        })),
      );
    }
  });
}
