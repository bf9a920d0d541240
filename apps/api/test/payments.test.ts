import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  operatorPaymentEndpoints,
  paymentEndpoints,
  STEP_UP_REQUIRED,
  webhookEndpoints,
  type BankAccount,
  type Payment,
  type ReturnOutcome,
} from '@customer-core/contracts';
import { testDatabaseKinds } from '@customer-core/database/testing';
import { signedInAgo, startTestServer, type TestServer } from '../testing/index.js';
import { returnsFileFor } from '../testing/nacha-returns.js';
import { call, loanIdOf, newBorrowerToken, OPERATOR_ENV, OPERATOR_SECRET } from './support/loans.js';
import { addAccount, loanPaymentsOf, operator } from './support/payments.js';
import {
  autopayBody,
  microDepositsIn,
  parsedNachaFile as parsedFile,
  paymentBody,
  runAndExport,
  TEST_ROUTING as A_ROUTING,
} from '../testing/payments.js';
import { logCollector } from './support/mail.js';
import { startWebhookReceiver } from './support/webhook-receiver.js';
import { demoAccessToken } from './support/session.js';

// Paying a loan end to end over the API, on each database: a bank account added (after a recent
// sign-in) and verified with the micro-deposits the lender's file carried, a payment of what is past
// due (once, however often it is submitted), the file that takes it to the bank, its settlement
// posting it to the loan, and the bank's returns.

const ACCOUNT = '000123456789';

for (const kind of testDatabaseKinds()) {
  describe(`payments (${kind})`, () => {
    let server: TestServer;
    let url: string;
    let token: string;
    let loanId: string;
    let account: BankAccount;
    let content: string;
    const logs = logCollector();
    let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

    /** Verifies the account with the amounts the file carried to it. */
    async function verifyFromFile(sent: string): Promise<BankAccount> {
      const [first, second] = microDepositsIn(sent, A_ROUTING, ACCOUNT);
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

    before(async () => {
      // The most one payment may be: above the demo loan's payoff, so both refusals can be seen.
      server = await startTestServer(
        kind,
        { ...OPERATOR_ENV, PAYMENT_MAX_CENTS: '9000000', LOG_LEVEL: 'debug' },
        { logStream: logs.stream },
      );
      url = server.baseUrl;
      token = await demoAccessToken(url);
      receiver = await startWebhookReceiver();
      const endpoint = await call(url, 'POST', webhookEndpoints.addEndpoint.path, OPERATOR_SECRET, {
        url: receiver.url,
        eventTypes: [
          'payment.scheduled',
          'payment.settled',
          'payment.returned',
          'autopay.enabled',
          'autopay.disabled',
        ],
      });
      receiver.useSecret(String(endpoint.body.secret));
      loanId = await loanIdOf(server, 'LN-DEMO-2');
    });
    after(async () => {
      await server?.close();
      await receiver?.close();
    });

    it('adds a bank account only after a recent sign-in, and refuses a bad routing number', async () => {
      const stale = await signedInAgo(server, token, 3600);
      const body = {
        holderName: 'Demo Supplies LLC',
        routingNumber: A_ROUTING,
        accountNumber: ACCOUNT,
        accountNumberAgain: ACCOUNT,
        type: 'checking',
      };
      const refused = await call(url, 'POST', paymentEndpoints.addBankAccount.path, stale, body);
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error, STEP_UP_REQUIRED);

      const badRouting = await call(url, 'POST', paymentEndpoints.addBankAccount.path, token, {
        ...body,
        routingNumber: '021000022',
      });
      assert.equal(badRouting.status, 400);
      assert.match(String(badRouting.body.message), /routing number isn’t valid/);
      const mismatch = await call(url, 'POST', paymentEndpoints.addBankAccount.path, token, {
        ...body,
        accountNumberAgain: '000123456788',
      });
      assert.equal(mismatch.status, 400);
      assert.match(String(mismatch.body.message), /don’t match/);

      account = await addAccount(url, token, ACCOUNT);
      assert.equal(account.status, 'pending_verification');
      assert.equal(account.last4, '6789');
      assert.match(account.bankName ?? '', /^JPMorgan Chase Bank/);
      assert.equal(account.microDepositsSent, false);
      const again = await call(url, 'POST', paymentEndpoints.addBankAccount.path, token, body);
      assert.equal(again.status, 409);
      assert.equal(again.body.error, 'bank_account_exists');

      const listed = await call(url, 'GET', paymentEndpoints.bankAccounts.path, token);
      assert.ok(!JSON.stringify(listed.body).includes(ACCOUNT), 'the number never comes back');
      const stored = await server.server.db
        .selectFrom('bank_account')
        .select('account_number')
        .executeTakeFirstOrThrow();
      assert.ok(!stored.account_number.includes(ACCOUNT), 'the number is sealed at rest');
    });

    it('verifies the account with the two amounts its micro-deposits carried, three tries at most', async () => {
      ({ content } = await runAndExport(url, OPERATOR_SECRET));
      const verification = parsedFile(content).batches.find((b) => b.description.trim() === 'ACCTVERIFY');
      assert.ok(verification, 'a verification batch');
      assert.equal(verification.serviceClassCode, 200);
      const wrong = await call(
        url,
        'POST',
        paymentEndpoints.verifyBankAccount.href({ accountId: account.id }),
        token,
        {
          firstAmountCents: 99,
          secondAmountCents: 98,
        },
      );
      assert.equal(wrong.status, 409);
      assert.equal(wrong.body.error, 'wrong_amounts');
      const tried = await call(url, 'GET', paymentEndpoints.bankAccounts.path, token);
      assert.equal((tried.body.accounts as BankAccount[])[0]!.triesLeft, 2);
      account = await verifyFromFile(content);
      assert.equal(account.status, 'verified');
    });

    /** Autopay turned on for the demo loan from the verified account, as the borrower does. */
    const turnOnAutopay = (now: Awaited<ReturnType<typeof loanPaymentsOf>>) =>
      call(
        url,
        'PUT',
        paymentEndpoints.turnOnAutopay.href({ loanId }),
        token,
        autopayBody(now, account, 'LN-DEMO-2'),
      );
    let payment: Payment;
    it('pays the past-due amount once, however often the same submission comes', async () => {
      const before = await loanPaymentsOf(url, token, loanId);
      assert.ok(before.options.pastDueCents, 'the demo loan is past due');
      const body = paymentBody(before, account, before.options.pastDueCents);
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          call(url, 'POST', paymentEndpoints.makePayment.href({ loanId }), token, body),
        ),
      );
      assert.deepEqual(new Set(answers.map((a) => a.status)), new Set([201]));
      assert.equal(new Set(answers.map((a) => a.body.id)).size, 1, 'one payment');
      payment = answers[0]!.body as unknown as Payment;
      assert.equal(payment.status, 'scheduled');
      assert.ok(payment.cancellableUntil);
      const rows = await server.server.db
        .selectFrom('payment')
        .select('id')
        .where('loan_id', '=', loanId)
        .execute();
      assert.equal(rows.length, 1);

      const otherBody = await call(url, 'POST', paymentEndpoints.makePayment.href({ loanId }), token, {
        ...body,
        amountCents: body.amountCents - 1,
      });
      assert.equal(otherBody.status, 409);
      assert.equal(otherBody.body.error, 'idempotency_key_reused');
    });

    it('refuses what cannot be paid: over the payoff, a day the bank is closed, words not accepted', async () => {
      const now = await loanPaymentsOf(url, token, loanId);
      const pay = (amountCents: number) =>
        call(
          url,
          'POST',
          paymentEndpoints.makePayment.href({ loanId }),
          token,
          paymentBody(now, account, amountCents),
        );
      assert.equal((await pay(now.options.payoffCents + 1)).body.error, 'amount_over_payoff');
      assert.equal((await pay(now.options.maxPaymentCents + 1)).body.error, 'amount_over_limit');
      const saturday = now.options.bankingDays
        .map((d) => new Date(`${d}T00:00:00Z`))
        .find((d) => d.getUTCDay() === 5)!;
      saturday.setUTCDate(saturday.getUTCDate() + 1);
      const closed = await call(
        url,
        'POST',
        paymentEndpoints.makePayment.href({ loanId }),
        token,
        paymentBody(now, account, 10_000, saturday.toISOString().slice(0, 10)),
      );
      assert.equal(closed.body.error, 'date_unavailable');
      const tampered = await call(url, 'POST', paymentEndpoints.makePayment.href({ loanId }), token, {
        ...paymentBody(now, account, 10_000),
        authorizationSha256: '0'.repeat(64),
      });
      assert.equal(tampered.body.error, 'authorization_outdated');
    });

    it('answers another borrower 404 for this borrower’s account, loan and payment', async () => {
      const other = await newBorrowerToken(server, `other-${kind}@example.com`);
      const now = await loanPaymentsOf(url, token, loanId);
      for (const [method, path, body] of [
        ['GET', paymentEndpoints.loanPayments.href({ loanId }), undefined],
        ['POST', paymentEndpoints.makePayment.href({ loanId }), paymentBody(now, account, 10_000)],
        ['POST', paymentEndpoints.cancelPayment.href({ loanId, paymentId: payment.id }), undefined],
        [
          'POST',
          paymentEndpoints.verifyBankAccount.href({ accountId: account.id }),
          { firstAmountCents: 1, secondAmountCents: 2 },
        ],
        ['POST', paymentEndpoints.removeBankAccount.href({ accountId: account.id }), undefined],
      ] as const) {
        const answer = await call(url, method, path, other, body);
        assert.equal(answer.status, 404, `${method} ${path}`);
      }
    });

    it('sends the payment to the bank, then settles it: the loan’s balance and schedule move', async () => {
      const loanBefore = await call(url, 'GET', `/api/borrower/loans/${loanId}`, token);
      const { file, content: sent } = await runAndExport(url, OPERATOR_SECRET, payment.effectiveOn);
      const debits = parsedFile(sent).batches.filter((b) => b.description.trim() === 'LOAN PYMT');
      assert.equal(debits.length, 1);
      assert.equal(debits[0]!.entries[0]!.amount, payment.amountCents);
      const pending = await loanPaymentsOf(url, token, loanId);
      assert.equal(pending.payments[0]!.status, 'pending');
      assert.equal(pending.payments[0]!.cancellableUntil, null);

      const settled = await operator<{ settled: number }>(
        url,
        OPERATOR_SECRET,
        'POST',
        operatorPaymentEndpoints.settleFile.href({ fileId: file.id }),
      );
      assert.equal(settled.body.settled, 1);
      const after = await call(url, 'GET', `/api/borrower/loans/${loanId}`, token);
      assert.equal(after.body.status, 'ACTIVE');
      assert.equal(after.body.overdue, null);
      assert.equal(
        Number(after.body.balanceCents),
        Number(loanBefore.body.balanceCents) - payment.amountCents,
      );
      const done = await loanPaymentsOf(url, token, loanId);
      assert.equal(done.payments[0]!.status, 'settled');
    });

    it('reads the bank’s returns: R01 reopens the amount, R10 disables the account and turns autopay off', async () => {
      const now = await loanPaymentsOf(url, token, loanId);
      const on = await turnOnAutopay(now);
      assert.equal(on.status, 200, JSON.stringify(on.body));
      assert.equal(on.body.enabled, true);
      assert.ok((on.body.nextDebit as { on: string }).on >= now.options.earliestDate);

      const second = await call(
        url,
        'POST',
        paymentEndpoints.makePayment.href({ loanId }),
        token,
        paymentBody(now, account, 50_000),
      );
      assert.equal(second.status, 201);
      const secondPayment = second.body as unknown as Payment;
      await runAndExport(url, OPERATOR_SECRET, secondPayment.effectiveOn);

      const rows = await server.server.db
        .selectFrom('payment')
        .select(['reference', 'trace_number', 'amount_cents'])
        .where('loan_id', '=', loanId)
        .orderBy('created_at')
        .execute();
      const originator = server.config.payments.originator;
      const returned = (row: (typeof rows)[number], returnCode: string) => ({
        trace: row.trace_number!,
        returnCode,
        routingNumber: A_ROUTING,
        accountNumber: ACCOUNT,
        amountCents: Number(row.amount_cents),
        identification: row.reference,
        receiverName: 'Demo Supplies LLC',
      });
      const returnsFile = returnsFileFor([returned(rows[0]!, 'R01'), returned(rows[1]!, 'R10')], originator);
      const read = await operator<{ returns: ReturnOutcome[] }>(
        url,
        OPERATOR_SECRET,
        'POST',
        operatorPaymentEndpoints.returns.path,
        {
          content: returnsFile,
        },
      );
      assert.equal(read.status, 200, JSON.stringify(read.body));
      assert.deepEqual(
        read.body.returns.map((r) => [r.returnCode, r.matched]),
        [
          ['R01', 'payment'],
          ['R10', 'payment'],
        ],
      );
      const loan = await call(url, 'GET', `/api/borrower/loans/${loanId}`, token);
      assert.equal(loan.body.status, 'PAST DUE', 'the settled payment taken back: late again');
      const after = await loanPaymentsOf(url, token, loanId);
      assert.deepEqual(
        after.payments.map((p) => [p.status, p.returnCode]),
        [
          ['returned', 'R10'],
          ['returned', 'R01'],
        ],
      );
      assert.equal(after.autopay.enabled, false);
      const accounts = await call(url, 'GET', paymentEndpoints.bankAccounts.path, token);
      assert.deepEqual(
        (accounts.body.accounts as BankAccount[]).map((a) => [a.status, a.returnCode]),
        [['disabled', 'R10']],
      );

      const again = await operator<{ returns: ReturnOutcome[] }>(
        url,
        OPERATOR_SECRET,
        'POST',
        operatorPaymentEndpoints.returns.path,
        {
          content: returnsFile,
        },
      );
      assert.deepEqual(
        again.body.returns.map((r) => r.matched),
        ['already_read', 'already_read'],
      );
      const refusedNow = await call(url, 'POST', paymentEndpoints.makePayment.href({ loanId }), token, {
        ...paymentBody(after, account, 10_000),
        idempotencyKey: randomUUID(),
      });
      assert.equal(
        refusedNow.body.error,
        'bank_account_not_usable',
        'a returned account is not debited again',
      );

      // Until it is verified again, with new micro-deposits.
      const reopened = await call(
        url,
        'POST',
        paymentEndpoints.reverifyBankAccount.href({ accountId: account.id }),
        token,
      );
      assert.equal(reopened.status, 200, JSON.stringify(reopened.body));
      assert.equal(reopened.body.status, 'pending_verification');
      const { content: resent } = await runAndExport(url, OPERATOR_SECRET);
      account = await verifyFromFile(resent);
      assert.equal(account.status, 'verified');
    });

    it('debits autopay’s instalment once, after a reminder a few banking days before', async () => {
      const now = await loanPaymentsOf(url, token, loanId);
      const on = await turnOnAutopay(now);
      assert.equal(on.status, 200, JSON.stringify(on.body));
      const debitOn = (on.body.nextDebit as { on: string; amountCents: number }).on;
      const days = now.options.bankingDays;
      const dayBefore = days[days.indexOf(debitOn) - 1]!;
      const autopayPayments = () =>
        server.server.db
          .selectFrom('payment')
          .select(['status', 'amount_cents'])
          .where('kind', '=', 'autopay')
          .execute();
      const reminders = () =>
        server.server.db
          .selectFrom('mail_outbox')
          .select('id')
          .where('kind', '=', 'autopay-reminder')
          .execute();

      // A run for the days before it: the reminder goes, the debit does not yet.
      await operator(url, OPERATOR_SECRET, 'POST', operatorPaymentEndpoints.run.path, { through: dayBefore });
      assert.equal((await reminders()).length, 1);
      assert.equal((await autopayPayments()).length, 0);
      // The run whose file must carry it: debited once, however often it runs.
      await runAndExport(url, OPERATOR_SECRET, debitOn);
      await operator(url, OPERATOR_SECRET, 'POST', operatorPaymentEndpoints.run.path, { through: debitOn });
      const debits = await autopayPayments();
      assert.deepEqual(
        debits.map((d) => [d.status, Number(d.amount_cents)]),
        [['pending', (on.body.nextDebit as { amountCents: number }).amountCents]],
      );
      assert.equal((await reminders()).length, 1, 'one reminder');
      // What the borrower reads next is the instalment after it, not the one on its way.
      const after = await loanPaymentsOf(url, token, loanId);
      assert.ok(
        after.autopay.nextDebit && after.autopay.nextDebit.on > debitOn,
        JSON.stringify(after.autopay),
      );
    });

    it('counts wrong amounts and added accounts each in one step, however many come at once', async () => {
      // Another borrower, so the demo's accounts and payments stay as the tests before left them.
      const other = await newBorrowerToken(server, `ceilings-${kind}@example.com`);
      const added = await addAccount(url, other, '31415926');
      await runAndExport(url, OPERATOR_SECRET);
      const guesses = await Promise.all(
        Array.from({ length: 6 }, () =>
          call(url, 'POST', paymentEndpoints.verifyBankAccount.href({ accountId: added.id }), other, {
            firstAmountCents: 98,
            secondAmountCents: 99,
          }),
        ),
      );
      assert.deepEqual(
        guesses.map((g) => g.body.error).sort(),
        [
          'verification_unavailable',
          'verification_unavailable',
          'verification_unavailable',
          'wrong_amounts',
          'wrong_amounts',
          'wrong_amounts',
        ],
        'three tries, then none',
      );
      const [failed] = (await call(url, 'GET', paymentEndpoints.bankAccounts.path, other)).body
        .accounts as BankAccount[];
      assert.deepEqual([failed!.status, failed!.triesLeft], ['failed', 0]);

      // Five accounts at most, the failed one among them, and adding many at once makes no sixth.
      const adds = await Promise.all(
        ['11110001', '11110002', '11110003', '11110004', '11110005', '11110006'].map((number) =>
          call(url, 'POST', paymentEndpoints.addBankAccount.path, other, {
            holderName: 'Ceilings LLC',
            routingNumber: A_ROUTING,
            accountNumber: number,
            accountNumberAgain: number,
            type: 'checking',
          }),
        ),
      );
      assert.equal(adds.filter((a) => a.status === 201).length, 4);
      assert.deepEqual(
        new Set(adds.filter((a) => a.status !== 201).map((a) => a.body.error)),
        new Set(['too_many_bank_accounts']),
      );
      // Removing one and adding another is no way around it: accounts added lately count.
      const listed = (await call(url, 'GET', paymentEndpoints.bankAccounts.path, other)).body
        .accounts as BankAccount[];
      const removed = await call(
        url,
        'POST',
        paymentEndpoints.removeBankAccount.href({ accountId: listed[1]!.id }),
        other,
      );
      assert.equal(removed.status, 200);
      const again = await call(url, 'POST', paymentEndpoints.addBankAccount.path, other, {
        holderName: 'Ceilings LLC',
        routingNumber: A_ROUTING,
        accountNumber: '11110009',
        accountNumberAgain: '11110009',
        type: 'checking',
      });
      assert.equal(again.body.error, 'too_many_bank_accounts');
      assert.match(String(again.body.message), /for now/);
    });

    it('tells the lender’s systems each change, and writes no account number or amount to any log', async () => {
      const told = [
        'payment.scheduled',
        'payment.settled',
        'payment.returned',
        'autopay.enabled',
        'autopay.disabled',
      ];
      const types = () => new Set([...receiver.processed.values()].map((e) => e.type));
      await receiver.until(() => told.every((type) => types().has(type)));
      const returned = [...receiver.processed.values()].filter((e) => e.type === 'payment.returned');
      assert.deepEqual(returned.map((e) => e.data.returnCode).sort(), ['R01', 'R10']);
      // Every change of a payment is in the audit of the borrower's account, with who made it.
      const audited = await server.server.db
        .selectFrom('audit_record')
        .select(['action', 'actor'])
        .where('action', 'like', 'payment %')
        .where('target', 'like', 'borrower:%')
        .execute();
      const actions = new Set(audited.map((record) => `${record.action} by ${record.actor.split(':')[0]}`));
      for (const change of [
        'payment scheduled by borrower',
        'payment pending by service',
        'payment settled by service',
        'payment returned by service',
      ])
        assert.ok(actions.has(change), `${change} audited`);
      const logged = logs.text();
      assert.ok(logged.includes('payment file written'), 'the logs were captured');
      assert.ok(!logged.includes(ACCOUNT), 'no account number in the logs');
      assert.ok(!logged.includes(ACCOUNT.slice(3)), 'nor a part of it');
      const mail = await server.server.db
        .selectFrom('mail_outbox')
        .select(['text_body', 'html_body', 'subject'])
        .execute();
      assert.ok(mail.length > 0);
      assert.ok(!JSON.stringify(mail).includes(ACCOUNT.slice(3)), 'no account number in an e-mail');
    });
  });
}
