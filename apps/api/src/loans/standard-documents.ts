import type { Config } from '../config/config.js';

// The closing documents of a loan, written from its terms: what the borrower reviews and signs at
// checkout. Plain text, so the portal shows it as it is and nothing in it can run.

/** The terms a document is written from. */
export interface DocumentTerms {
  reference: string;
  product: string;
  amountCents: number;
  balanceCents: number;
  nextPayment: { dueOn: string; amountCents: number } | null;
}

export type Lender = Config['lender'];

export interface StandardDocument {
  title: string;
  description: string;
  body: string;
  requiresSignature: boolean;
}

const usdFormat = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const usd = (cents: number) => usdFormat.format(cents / 100);

// A due date is a calendar day: formatted in UTC so no time zone moves it.
const dayFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });
const day = (isoDate: string) => dayFormat.format(new Date(`${isoDate}T00:00:00Z`));

const paragraphs = (...parts: string[]) => parts.join('\n\n');

function agreement(t: DocumentTerms, lender: Lender): StandardDocument {
  const repayment = t.nextPayment
    ? `The Borrower repays the loan in regular installments. The next installment, ${usd(t.nextPayment.amountCents)}, is due on ${day(t.nextPayment.dueOn)}; the Payment schedule lists the installments that follow.`
    : 'No installment is scheduled at the date of this agreement; the Lender will send a payment schedule before any payment falls due.';
  return {
    title: 'Loan agreement',
    description:
      'The terms of your loan: the amount, how it is repaid, and what happens if a payment is late.',
    requiresSignature: true,
    body: paragraphs(
      `Loan agreement — loan ${t.reference}`,
      `This agreement is between ${lender.name} (the "Lender") and the business named on the loan application, represented by the person signing below (the "Borrower"). It covers the ${t.product} with loan number ${t.reference}.`,
      `1. The loan. The Lender lends the Borrower ${usd(t.amountCents)}. The balance outstanding on the date of this agreement is ${usd(t.balanceCents)}.`,
      `2. Repayment. ${repayment} Installments are collected by ACH debit from the business bank account named in the ACH debit authorization.`,
      '3. Early repayment. The Borrower may repay the whole balance, or part of it, at any time. Any part repaid early reduces the installments that remain and is never charged a prepayment fee.',
      '4. Late payment. An installment not received within 10 days of its due date may be charged a late fee of 5% of that installment, and the loan is then shown as past due. The Lender will contact the Borrower before taking any further step.',
      '5. Use of the funds. The Borrower uses the loan for the purposes of the business only, and not for personal, family or household purposes.',
      `By typing your name and signing, you confirm that you may sign for the Borrower and that the Borrower agrees to these terms. Questions: call ${lender.supportPhone}.`,
    ),
  };
}

function promissoryNote(t: DocumentTerms, lender: Lender): StandardDocument {
  return {
    title: 'Promissory note',
    description: 'The Borrower’s promise to repay the amount of the loan.',
    requiresSignature: true,
    body: paragraphs(
      `Promissory note — loan ${t.reference}`,
      `For value received, the Borrower promises to pay to the order of ${lender.name} the principal sum of ${usd(t.amountCents)}, together with the charges set out in the loan agreement for loan ${t.reference}, in the installments and on the dates the Payment schedule sets.`,
      'Payments are applied first to any fees due, then to charges, then to principal. The Borrower may prepay this note in whole or in part at any time without penalty.',
      'If an installment remains unpaid 30 days after its due date, the Lender may declare the whole unpaid balance due at once, after notice to the Borrower. The Lender may delay enforcing any of its rights without losing them.',
      'This note is governed by the law of the state in which the Lender is located. By signing, the Borrower makes this promise as a binding obligation of the business.',
    ),
  };
}

function costDisclosure(t: DocumentTerms, lender: Lender): StandardDocument {
  const payment = t.nextPayment
    ? `Your next payment: ${usd(t.nextPayment.amountCents)}, due ${day(t.nextPayment.dueOn)}.`
    : 'No payment is scheduled yet; we will tell you each amount before it falls due.';
  return {
    title: 'Cost of capital disclosure',
    description: 'What the financing costs, stated plainly, before you sign.',
    requiresSignature: false,
    body: paragraphs(
      `Cost of capital disclosure — loan ${t.reference}`,
      `${lender.name} gives you this disclosure so that you can see what the ${t.product} costs before you commit to it. Please read it together with the loan agreement.`,
      `Amount financed: ${usd(t.amountCents)}.\nBalance outstanding today: ${usd(t.balanceCents)}.\n${payment}`,
      'Fees: no origination fee and no prepayment fee. A late fee of 5% of an installment applies only if that installment is more than 10 days late.',
      `Paying early lowers the total cost: the charges on the part repaid early are not owed. If anything here is unclear, call us at ${lender.supportPhone} before you sign.`,
    ),
  };
}

function paymentSchedule(t: DocumentTerms, lender: Lender): StandardDocument {
  const schedule = t.nextPayment
    ? paragraphs(
        `Next installment: ${usd(t.nextPayment.amountCents)} on ${day(t.nextPayment.dueOn)}.`,
        `Installments of the same amount follow on the same day of each following month until the balance of ${usd(t.balanceCents)} and its charges are repaid. When a due date falls on a weekend or bank holiday, the debit is made on the next business day.`,
      )
    : `No installment is scheduled on this loan right now. The balance is ${usd(t.balanceCents)}; ${lender.name} will send an updated schedule at least 10 days before any installment falls due.`;
  return {
    title: 'Payment schedule',
    description: 'When each payment is due and how much it is.',
    requiresSignature: false,
    body: paragraphs(
      `Payment schedule — loan ${t.reference}`,
      `This schedule belongs to the ${t.product} of ${usd(t.amountCents)}, loan number ${t.reference}.`,
      schedule,
      'Your balance and next payment are always shown on your dashboard in the portal. An early or additional payment reduces the balance at once.',
    ),
  };
}

function achAuthorization(t: DocumentTerms, lender: Lender): StandardDocument {
  const amount = t.nextPayment
    ? `each scheduled installment (the next one is ${usd(t.nextPayment.amountCents)} on ${day(t.nextPayment.dueOn)})`
    : 'each scheduled installment, as the Payment schedule sets it';
  return {
    title: 'ACH debit authorization',
    description: 'Lets us collect each payment from your business bank account.',
    requiresSignature: true,
    body: paragraphs(
      `ACH debit authorization — loan ${t.reference}`,
      `The Borrower authorizes ${lender.name} to debit the business bank account on file for ${amount}, until the ${t.product} (loan ${t.reference}) is repaid in full.`,
      'If a debit is returned unpaid, the Lender may try it again once within 30 days. The Borrower will keep enough funds in the account on each due date.',
      `This authorization stays in force until the loan is repaid or until the Borrower revokes it by calling ${lender.supportPhone} at least 3 business days before a due date. Revoking it does not cancel the obligation to pay.`,
    ),
  };
}

/** The standard closing documents of a loan, in the order the borrower goes through them. */
export function standardDocuments(terms: DocumentTerms, lender: Lender): StandardDocument[] {
  return [agreement, promissoryNote, costDisclosure, paymentSchedule, achAuthorization].map((write) =>
    write(terms, lender),
  );
}
