import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import {
  operatorPaymentEndpoints,
  paymentAuthorizationText,
  paymentEndpoints,
  type BankAccount,
  type LoanPayments,
  type Locale,
  type PaymentFileView,
} from '@customer-core/contracts';

// What the payment tests share, API and browser alike: the borrower's calls as the portal makes them
// (the authorization's fingerprint from the words shown), the operators' run and export, and the
// micro-deposits read back out of the file with a NACHA package apart from the one that writes it.

/** A routing number the bundled bank directory names (JPMorgan Chase). */
export const TEST_ROUTING = '021000021';
export const TEST_HOLDER = 'Demo Supplies LLC';

/** The file as the bank reads it: amounts in cents. */
interface ParsedEntry {
  transactionCode: string;
  receivingDFIIdentification: number;
  checkDigit: number;
  dfiAccount: string;
  amount: number;
  traceNumber: number;
}
export interface ParsedNachaFile {
  batches: { serviceClassCode: number; description: string; effectiveDate: string; entries: ParsedEntry[] }[];
}
const parser = createRequire(import.meta.url)('@midlandsbank/node-nacha') as {
  from(text: string): { data: ParsedNachaFile };
};

export const parsedNachaFile = (content: string) => parser.from(content).data;

/** The two micro-deposit credits the file carries to this account, in cents, in the file's order. */
export function microDepositsIn(content: string, routing: string, accountNumber: string): [number, number] {
  const credits = parsedNachaFile(content)
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

/** A call with a Bearer token, its status and JSON answer. */
async function call<T>(
  baseUrl: string,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  token: string,
  body?: unknown,
) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** The operators' run (through a day, when given), and its file's bytes: a file must come of it. */
export async function runAndExport(
  baseUrl: string,
  operatorSecret: string,
  through?: string,
): Promise<{ file: PaymentFileView; content: string }> {
  const run = await call<{ file: PaymentFileView | null }>(
    baseUrl,
    'POST',
    operatorPaymentEndpoints.run.path,
    operatorSecret,
    through ? { through } : {},
  );
  assert.equal(run.status, 200, JSON.stringify(run.body));
  assert.ok(run.body.file, 'the run wrote a file');
  const exported = await call<{ file: PaymentFileView; content: string }>(
    baseUrl,
    'POST',
    operatorPaymentEndpoints.exportFile.href({ fileId: run.body.file.id }),
    operatorSecret,
    {},
  );
  assert.equal(exported.status, 200, JSON.stringify(exported.body));
  return exported.body;
}

/** Adds the account (a token of a recent sign-in), has the run carry its micro-deposits, verifies it. */
export async function verifiedBankAccount(
  baseUrl: string,
  token: string,
  operatorSecret: string,
  accountNumber: string,
): Promise<BankAccount> {
  const added = await call<BankAccount>(baseUrl, 'POST', paymentEndpoints.addBankAccount.path, token, {
    holderName: TEST_HOLDER,
    routingNumber: TEST_ROUTING,
    accountNumber,
    accountNumberAgain: accountNumber,
    type: 'checking',
  });
  assert.equal(added.status, 201, JSON.stringify(added.body));
  const { content } = await runAndExport(baseUrl, operatorSecret);
  const [first, second] = microDepositsIn(content, TEST_ROUTING, accountNumber);
  const verified = await call<BankAccount>(
    baseUrl,
    'POST',
    paymentEndpoints.verifyBankAccount.href({ accountId: added.body.id }),
    token,
    { firstAmountCents: first, secondAmountCents: second },
  );
  assert.equal(verified.status, 200, JSON.stringify(verified.body));
  return verified.body;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The authorization's words as the portal shows them, for these terms. */
function authorizationSha256(
  payments: Pick<LoanPayments, 'lender'>,
  account: BankAccount,
  terms: Parameters<typeof paymentAuthorizationText>[0]['terms'],
  locale: Locale,
) {
  return sha256(
    paymentAuthorizationText({
      locale,
      holderName: account.holderName,
      bankName: account.bankName,
      last4: account.last4,
      lenderName: payments.lender.name,
      supportPhone: payments.lender.supportPhone,
      terms,
    }),
  );
}

/** A payment's body as the portal sends it: the one-time authorization's fingerprint from its words. */
export function paymentBody(
  payments: Pick<LoanPayments, 'lender' | 'options'>,
  account: BankAccount,
  amountCents: number,
  effectiveOn = payments.options.earliestDate,
  idempotencyKey: string = randomUUID(),
  locale: Locale = 'en-US',
) {
  return {
    locale,
    idempotencyKey,
    amountCents,
    effectiveOn,
    bankAccountId: account.id,
    authorizationSha256: authorizationSha256(
      payments,
      account,
      { kind: 'one_time', amountCents, effectiveOn },
      locale,
    ),
    authorized: true as const,
  };
}

/** Autopay's body as the portal sends it. */
export function autopayBody(
  payments: Pick<LoanPayments, 'lender'>,
  account: BankAccount,
  loanReference: string,
  locale: Locale = 'en-US',
) {
  return {
    locale,
    bankAccountId: account.id,
    authorizationSha256: authorizationSha256(payments, account, { kind: 'autopay', loanReference }, locale),
    authorized: true as const,
  };
}
