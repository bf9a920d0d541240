import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import {
  operatorPaymentEndpoints,
  paymentAuthorizationText,
  paymentEndpoints,
  type BankAccount,
  type LoanPayments,
  type PaymentFileView,
} from '@customer-core/contracts';
import { call } from './loans.js';

// What the payment tests share: the borrower's calls as the portal makes them (the authorization's
// fingerprint computed from the words shown), the operators' run, export and settlement, and the
// micro-deposits read back out of the file with a NACHA parser apart from the one that writes it.

export const A_ROUTING = '021000021';

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

interface ParsedEntry {
  transactionCode: string;
  receivingDFIIdentification: number;
  checkDigit: number;
  dfiAccount: string;
  amount: number;
}
/** Amounts in cents, as the file has them. */
interface ParsedFile {
  batches: { serviceClassCode: number; description: string; effectiveDate: string; entries: ParsedEntry[] }[];
}
const parser = createRequire(import.meta.url)('@midlandsbank/node-nacha') as {
  from(text: string): { data: ParsedFile };
};

/** The file as the bank reads it. */
export const parsedFile = (content: string) => parser.from(content).data;

/** The two micro-deposit credits the file carries to this account (in cents, in the file's order). */
export function microDepositsIn(content: string, routing: string, accountNumber: string): [number, number] {
  const credits = parsedFile(content)
    .batches.filter((b) => b.description.trim() === 'ACCTVERIFY')
    .flatMap((b) => b.entries)
    .filter(
      (e) =>
        String(e.transactionCode) === '22' &&
        `${String(e.receivingDFIIdentification).padStart(8, '0')}${e.checkDigit}` === routing &&
        e.dfiAccount.trim() === accountNumber,
    )
    .map((e) => Number(e.amount));
  assert.equal(credits.length, 2, 'two micro-deposit credits to the account');
  return [credits[0]!, credits[1]!];
}

export async function addAccount(
  url: string,
  token: string,
  accountNumber: string,
  routingNumber = A_ROUTING,
): Promise<BankAccount> {
  const added = await call(url, 'POST', paymentEndpoints.addBankAccount.path, token, {
    holderName: 'Demo Supplies LLC',
    routingNumber,
    accountNumber,
    accountNumberAgain: accountNumber,
    type: 'checking',
  });
  assert.equal(added.status, 201, JSON.stringify(added.body));
  return added.body as unknown as BankAccount;
}

export async function operator<T>(
  url: string,
  secret: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
) {
  const answer = await call(url, method, path, secret, body);
  return answer as { status: number; body: T & Record<string, unknown> };
}

/** A run (through a day, when given) and its file's bytes, exported. */
export async function runAndExport(
  url: string,
  secret: string,
  through?: string,
): Promise<{ file: PaymentFileView; content: string }> {
  const run = await operator<{ file: PaymentFileView | null }>(
    url,
    secret,
    'POST',
    operatorPaymentEndpoints.run.path,
    through ? { through } : {},
  );
  assert.equal(run.status, 200, JSON.stringify(run.body));
  assert.ok(run.body.file, 'the run wrote a file');
  const exported = await operator<{ file: PaymentFileView; content: string }>(
    url,
    secret,
    'POST',
    operatorPaymentEndpoints.exportFile.href({ fileId: run.body.file.id }),
    {},
  );
  assert.equal(exported.status, 200, JSON.stringify(exported.body));
  return exported.body;
}

/** Verifies the account with the amounts the file carried to it. */
export async function verifyFromFile(
  url: string,
  token: string,
  account: BankAccount,
  content: string,
  accountNumber: string,
) {
  const [first, second] = microDepositsIn(content, account.routingNumber, accountNumber);
  const verified = await call(
    url,
    'POST',
    paymentEndpoints.verifyBankAccount.href({ accountId: account.id }),
    token,
    {
      firstAmountCents: first,
      secondAmountCents: second,
    },
  );
  assert.equal(verified.status, 200, JSON.stringify(verified.body));
  return verified.body as unknown as BankAccount;
}

export async function loanPaymentsOf(url: string, token: string, loanId: string): Promise<LoanPayments> {
  const answer = await call(url, 'GET', paymentEndpoints.loanPayments.href({ loanId }), token);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body as unknown as LoanPayments;
}

/** A payment's body as the portal sends it: the one-time authorization's fingerprint from its words. */
export function paymentBody(
  payments: LoanPayments,
  account: BankAccount,
  amountCents: number,
  effectiveOn = payments.options.earliestDate,
  idempotencyKey: string = randomUUID(),
) {
  const text = paymentAuthorizationText({
    locale: 'en-US',
    holderName: account.holderName,
    bankName: account.bankName,
    last4: account.last4,
    lenderName: payments.lender.name,
    supportPhone: payments.lender.supportPhone,
    terms: { kind: 'one_time', amountCents, effectiveOn },
  });
  return {
    locale: 'en-US',
    idempotencyKey,
    amountCents,
    effectiveOn,
    bankAccountId: account.id,
    authorizationSha256: sha256(text),
    authorized: true,
  };
}

export function autopayBody(payments: LoanPayments, account: BankAccount, loanReference: string) {
  const text = paymentAuthorizationText({
    locale: 'en-US',
    holderName: account.holderName,
    bankName: account.bankName,
    last4: account.last4,
    lenderName: payments.lender.name,
    supportPhone: payments.lender.supportPhone,
    terms: { kind: 'autopay', loanReference },
  });
  return { locale: 'en-US', bankAccountId: account.id, authorizationSha256: sha256(text), authorized: true };
}
