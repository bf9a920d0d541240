import { createHash } from 'node:crypto';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import {
  applicationEndpoints,
  documentEndpoints,
  operatorEndpoints,
  registrationEndpoints,
  WEBHOOK_EVENT_TYPES,
  webhookEndpoints,
  type WebhookDeliveryView,
  type WebhookEndpointView,
} from '@customer-core/contracts';
import { startTestServer, type TestServer } from '../testing/index.js';
import { mailFor } from './support/links.js';
import { invite, linkTokenOf, uniqueEmail } from './support/joining.js';
import {
  activeLoan,
  addLoan,
  call,
  completeCheckout,
  loanIdOf,
  newBorrowerToken,
  OPERATOR_ENV,
  OPERATOR_SECRET,
} from './support/loans.js';
import { startWebhookReceiver } from './support/webhook-receiver.js';
import { post } from './support/session.js';

// Events to the lender's systems: each event type delivered to a receiver that checks the signature
// with the standardwebhooks package, retried after a 500 with the same webhook-id (processed once),
// replayed on demand (dropped as a repeat), and an endpoint that keeps failing turned off.

describe('webhooks to the lender’s systems', () => {
  let server: TestServer;
  let url: string;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

  before(async () => {
    receiver = await startWebhookReceiver();
    // Retries at once (10 ms at most, looked for every 20 ms), and three attempts before a delivery gives up.
    server = await startTestServer('pglite', {
      ...OPERATOR_ENV,
      MAIL_POLL_INTERVAL_MS: '20',
      WEBHOOK_RETRY_BASE_MS: '10',
      WEBHOOK_MAX_ATTEMPTS: '3',
    });
    url = server.baseUrl;
  });
  after(async () => {
    await server?.close();
    await receiver?.close();
  });

  const operator = (method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown) =>
    call(url, method, path, OPERATOR_SECRET, body);
  const deliveries = async (query = '') => {
    const answer = await operator('GET', `${webhookEndpoints.deliveries.path}${query}`);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return (answer.body as { deliveries: WebhookDeliveryView[] }).deliveries;
  };
  const endpoints = async () =>
    ((await operator('GET', webhookEndpoints.endpoints.path)).body as { endpoints: WebhookEndpointView[] })
      .endpoints;
  const received = (type: string) => [...receiver.processed.values()].filter((event) => event.type === type);

  it('adds an endpoint whose secret is shown once and kept sealed', async () => {
    const added = await operator('POST', webhookEndpoints.addEndpoint.path, {
      url: receiver.url,
      description: 'Loan origination',
    });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const { secret, id, eventTypes } = added.body as { secret: string; id: string; eventTypes: string[] };
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{32}$/);
    assert.deepEqual(eventTypes, [...WEBHOOK_EVENT_TYPES]);
    receiver.useSecret(secret);

    const listed = await endpoints();
    assert.deepEqual(
      listed.map((endpoint) => [endpoint.id, endpoint.url, endpoint.enabled, 'secret' in endpoint]),
      [[id, receiver.url, true, false]],
    );
    const { rows } = await sql<{ secret: string }>`select secret from webhook_endpoint`.execute(
      server.server.db,
    );
    assert.ok(
      rows[0]!.secret.startsWith('v1:') && !rows[0]!.secret.includes(secret.slice(6)),
      'sealed at rest',
    );
  });

  it('delivers every event type, signed; a 500 is retried with the same webhook-id, processed once', async () => {
    // Payments' and autopay's events are told in payments.test.ts, where payments are made.
    const TOLD_HERE = WEBHOOK_EVENT_TYPES.filter((type) => !/^(payment|autopay)\./.test(type));
    receiver.failFirstAttemptOf('borrower.registered');

    // borrower.registered: an invitation, and the registration with its link.
    const invited = uniqueEmail('webhook-invited');
    assert.equal(
      (await invite(url, { email: invited, firstName: 'Ines', lastName: 'Invited' }, OPERATOR_SECRET)).status,
      201,
    );
    const [invitation] = await mailFor(url, invited);
    const registered = await post(url, registrationEndpoints.register.path, {
      token: linkTokenOf(invitation!, '/user-registration/'),
      password: 'Registered-Pass-42',
    });
    assert.equal(registered.status, 200, await registered.text());

    // application.submitted, then application.email_verified with the e-mailed link.
    const applicant = uniqueEmail('webhook-applicant');
    const applied = await post(url, applicationEndpoints.start.path, {
      businessName: 'Hopper Compilers LLC',
      contactName: 'Grace Hopper',
      email: applicant,
      amountRequested: 250_000,
      purpose: 'equipment',
    });
    assert.equal(applied.status, 201);
    const [verification] = await mailFor(url, applicant);
    const verified = await post(url, applicationEndpoints.verifyEmail.path, {
      token: linkTokenOf(verification!, '/app/email-verification/'),
    });
    assert.equal(verified.status, 200);

    // document.reviewed for each, documents.signed for each signature, checkout.completed once.
    const borrowerEmail = uniqueEmail('webhook-borrower');
    const token = await newBorrowerToken(server, borrowerEmail);
    const reference = `LN-WH${Date.now().toString(36).toUpperCase()}`;
    assert.equal((await addLoan(url, activeLoan(reference, borrowerEmail))).status, 201);
    const loanId = await loanIdOf(server, reference);
    const documents = await completeCheckout(url, token, loanId, 'Otto Other');
    const toSign = documents.filter((document) => document.requiresSignature);
    // What the borrower downloads of each signed document: the bytes the event's fingerprint names.
    const downloaded = new Map<string, string>();
    for (const document of toSign) {
      const pdf = await fetch(`${url}${documentEndpoints.documentPdf.href({ documentId: document.id })}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(pdf.status, 200);
      downloaded.set(
        document.id,
        createHash('sha256')
          .update(Buffer.from(await pdf.arrayBuffer()))
          .digest('hex'),
      );
    }

    // sessions.ended_by_staff
    const ended = await operator('POST', operatorEndpoints.endAllSessions.path, { email: borrowerEmail });
    assert.equal(ended.status, 200);

    await receiver.until(() => TOLD_HERE.every((type) => received(type).length > 0));
    assert.equal(receiver.refusedSignatures(), 0);

    const [registration] = received('borrower.registered');
    assert.deepEqual(
      { ...registration!.data, borrowerId: typeof registration!.data.borrowerId },
      { borrowerId: 'string', email: invited, firstName: 'Ines', lastName: 'Invited' },
    );
    assert.equal(
      receiver.attempts.get(registration!.id),
      2,
      'a 500, then delivered with the same webhook-id',
    );
    const [application] = received('application.submitted');
    assert.deepEqual(
      [application!.data.email, application!.data.businessName, application!.data.emailVerified],
      [applicant, 'Hopper Compilers LLC', false],
    );
    assert.equal(
      received('application.email_verified')[0]!.data.applicationId,
      application!.data.applicationId,
    );
    assert.equal(received('document.reviewed').length, documents.length);
    const [signature] = received('documents.signed');
    assert.deepEqual(
      [
        signature!.data.loanReference,
        signature!.data.signerName,
        (signature!.data.documents as unknown[]).length,
      ],
      [reference, 'Otto Other', toSign.length],
    );
    for (const document of signature!.data.documents as Array<{
      documentId: string;
      textSha256: string;
      pdfSha256: string;
    }>) {
      assert.match(document.textSha256, /^[0-9a-f]{64}$/);
      assert.equal(document.pdfSha256, downloaded.get(document.documentId), 'the signed PDF’s fingerprint');
    }
    assert.equal(received('checkout.completed').length, 1);
    assert.deepEqual(received('sessions.ended_by_staff')[0]!.data.endedBy, 'service:operator');

    const [delivery] = (await deliveries('?status=delivered&limit=500')).filter(
      (one) => one.eventId === registration!.id,
    );
    assert.deepEqual(
      [delivery!.type, delivery!.attempts, delivery!.lastStatus, delivery!.status],
      ['borrower.registered', 2, 204, 'delivered'],
    );
  });

  it('replays a delivery with the same webhook-id, which the receiver drops as a repeat', async () => {
    const [registration] = received('borrower.registered');
    const [delivery] = (await deliveries()).filter((one) => one.eventId === registration!.id);
    const processedBefore = receiver.processed.size;
    const replayed = await operator(
      'POST',
      webhookEndpoints.replayDelivery.href({ deliveryId: delivery!.id }),
    );
    assert.equal(replayed.status, 202);
    await receiver.until(() => receiver.attempts.get(registration!.id) === 3);
    assert.equal(receiver.processed.size, processedBefore, 'nothing processed twice');
  });

  it('turns an endpoint off after its last attempt fails, and says why; its later events wait for it', async () => {
    const added = await operator('POST', webhookEndpoints.addEndpoint.path, {
      url: receiver.downUrl,
      eventTypes: ['sessions.ended_by_staff'],
    });
    const { id } = added.body as { id: string };
    const email = uniqueEmail('webhook-down');
    await newBorrowerToken(server, email);
    await operator('POST', operatorEndpoints.endAllSessions.path, { email });
    await receiver.until(() => receiver.downHits() === 3);
    await server.server.webhookDeliveries.whenIdle();

    // Counted for the alert (PortalWebhookEndpointTurnedOff): two failed attempts, then the dead one.
    const counted = await server.server.metrics.registry
      .getSingleMetric('portal_webhook_deliveries_total')!
      .get();
    const count = (outcome: string) =>
      counted.values
        .filter(
          (value) => value.labels.outcome === outcome && value.labels.type === 'sessions.ended_by_staff',
        )
        .reduce((sum, value) => sum + value.value, 0);
    assert.ok(count('dead') >= 1 && count('failed') >= 2, JSON.stringify(counted.values));
    const down = (await endpoints()).find((endpoint) => endpoint.id === id)!;
    assert.equal(down.enabled, false);
    assert.match(
      down.disabledReason ?? '',
      /^Turned off: 3 attempts to deliver msg_[0-9a-f]{32} failed, the last with HTTP 500\.$/,
    );
    const [dead] = await deliveries(`?endpointId=${id}`);
    assert.deepEqual(
      [dead!.status, dead!.attempts, dead!.lastStatus, dead!.lastResponse],
      ['dead', 3, 500, 'maintenance'],
    );

    // Another event while it is off waits, pending; turned on again, it is attempted.
    const again = uniqueEmail('webhook-down-again');
    await newBorrowerToken(server, again);
    await operator('POST', operatorEndpoints.endAllSessions.path, { email: again });
    await server.server.webhookDeliveries.whenIdle();
    assert.equal(receiver.downHits(), 3);
    const waiting = (await deliveries(`?endpointId=${id}&status=pending`)).length;
    assert.equal(waiting, 1);
    const turnedOn = await operator('PATCH', webhookEndpoints.updateEndpoint.href({ endpointId: id }), {
      enabled: true,
    });
    assert.equal((turnedOn.body as WebhookEndpointView).disabledReason, null);
    await receiver.until(() => receiver.downHits() === 4);
  });

  it('answers 404 to an unknown or malformed id, 400 to a bad endpoint, 403 to a borrower', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const endpointId of [unknown, 'not-an-id', "1' or '1'='1"])
      assert.equal(
        (await operator('PATCH', webhookEndpoints.updateEndpoint.href({ endpointId }), { enabled: false }))
          .status,
        404,
        endpointId,
      );
    for (const deliveryId of [unknown, 'x'])
      assert.equal(
        (await operator('POST', webhookEndpoints.replayDelivery.href({ deliveryId }))).status,
        404,
      );
    for (const body of [
      { url: 'ftp://lender.example/hook' },
      { url: 'https://user:pass@lender.example/hook' },
      { url: 'https://lender.example/hook', eventTypes: [] },
      { url: 'https://lender.example/hook', eventTypes: ['loan.deleted'] },
      { url: 'not a url' },
    ])
      assert.equal(
        (await operator('POST', webhookEndpoints.addEndpoint.path, body)).status,
        400,
        JSON.stringify(body),
      );
    assert.equal((await operator('GET', `${webhookEndpoints.deliveries.path}?endpointId=x`)).status, 400);
    const token = await newBorrowerToken(server, uniqueEmail('webhook-curious'));
    assert.equal((await call(url, 'GET', webhookEndpoints.endpoints.path, token)).status, 403);
  });
});
