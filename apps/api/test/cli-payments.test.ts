import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { returnsFileFor } from '../testing/nacha-returns.js';
import { operatorCli } from './support/operator-cli.js';
import { microDepositsIn, TEST_ROUTING as A_ROUTING } from '../testing/payments.js';
import { addAccount } from './support/payments.js';
import { demoAccessToken } from './support/session.js';

// `npm run cli -- payments`: the day's file written and handed over (owner-only, with its manifest),
// exported once, and the bank's returns read back from a file on the operator's disk.

const OPERATOR_SECRET = 'operator-secret-for-cli-payment-tests-0123456789';
const ACCOUNT = '4455667788';

describe('npm run cli -- payments', () => {
  const { cli, server } = operatorCli('pglite', 'payments', OPERATOR_SECRET);
  const outbox = mkdtempSync(path.join(tmpdir(), 'ach-outbox-'));
  after(() => rmSync(outbox, { recursive: true, force: true }));

  it('writes the file into the outbox, owner-only, with a manifest; a second export needs --force', async () => {
    assert.match((await cli('run')).stdout, /^Nothing is due to go to the bank\.$/m);
    const token = await demoAccessToken(server().baseUrl);
    await addAccount(server().baseUrl, token, ACCOUNT);

    const run = await cli('run', '--outbox', outbox);
    assert.equal(run.code, 0, run.stderr);
    const fileId = /\(file ([0-9a-f-]{36})\)/.exec(run.stdout)?.[1];
    const written = /^Exported to (.+)\.$/m.exec(run.stdout)?.[1];
    assert.ok(fileId && written, run.stdout);
    assert.equal(statSync(written).mode & 0o777, 0o600);
    const content = readFileSync(written, 'latin1');
    assert.equal(microDepositsIn(content, A_ROUTING, ACCOUNT).length, 2);
    const manifest = JSON.parse(readFileSync(`${written}.manifest.json`, 'utf8')) as Record<string, unknown>;
    assert.equal(manifest.entries, 3);
    assert.equal(manifest.file, path.basename(written));
    assert.match(String(manifest.sha256), /^[0-9a-f]{64}$/);

    const again = await cli('export', fileId, '--outbox', outbox);
    assert.notEqual(again.code, 0);
    assert.match(again.stderr, /exported before/);
    const listed = await cli('files');
    assert.match(listed.stdout, /^FILE\s+NAME\s+ENTRIES\s+DEBITS\s+CREDITS\s+EXPORTED\s+SETTLED$/m);
    assert.match(listed.stdout, new RegExp(`^${fileId}\\s+${path.basename(written)}\\s+3\\s`, 'm'));
  });

  it('reads a returns file from disk and lists what each return matched', async () => {
    const row = await server()
      .server.db.selectFrom('bank_account')
      .select('micro_traces')
      .executeTakeFirstOrThrow();
    const returns = path.join(outbox, 'returns.ach');
    writeFileSync(
      returns,
      returnsFileFor(
        [
          {
            trace: row.micro_traces![0]!,
            returnCode: 'R03',
            routingNumber: A_ROUTING,
            accountNumber: ACCOUNT,
            amountCents: 1,
            identification: 'VERIFY',
            receiverName: 'Demo Supplies LLC',
            transactionCode: '21',
          },
          {
            trace: '091000010000999',
            returnCode: 'R01',
            routingNumber: A_ROUTING,
            accountNumber: '1',
            amountCents: 500,
            identification: 'P-UNKNOWN',
            receiverName: 'Nobody',
          },
        ],
        server().config.payments.originator,
      ),
    );
    const read = await cli('returns', returns);
    assert.equal(read.code, 0, read.stderr);
    assert.match(read.stdout, new RegExp(`^${row.micro_traces![0]}\\s+R03\\s+\\S+\\s+verification`, 'm'));
    assert.match(read.stdout, /^091000010000999\s+R01\s+\$5\.00\s+MATCHES NOTHING: look into it/m);
    const account = await server()
      .server.db.selectFrom('bank_account')
      .select('status')
      .executeTakeFirstOrThrow();
    assert.equal(account.status, 'failed', 'a returned micro-deposit fails the verification');
  });
});
