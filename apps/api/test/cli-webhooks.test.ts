import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { operatorCli } from './support/operator-cli.js';

// `npm run cli -- webhooks`: the lender's endpoints and their deliveries, run in this process (the
// deliveries themselves: webhooks.test.ts).

const OPERATOR_SECRET = 'operator-secret-for-cli-webhook-tests-0123456789';

describe('npm run cli -- webhooks', () => {
  const { cli } = operatorCli('pglite', 'webhooks', OPERATOR_SECRET);

  it('adds an endpoint (its secret printed once), lists, turns it off and on, and lists deliveries', async () => {
    const added = await cli(
      'add',
      '--url',
      'https://los.lender.example/hooks',
      '--events',
      'borrower.registered, documents.signed',
      '--description',
      'Origination',
    );
    assert.equal(added.code, 0, added.stderr);
    const id = /^Added endpoint ([0-9a-f-]{36}) for https:\/\/los\.lender\.example\/hooks\.$/m.exec(
      added.stdout,
    )?.[1];
    assert.ok(id, added.stdout);
    assert.match(
      added.stdout,
      /^Its signing secret \(shown only now; keep it with the receiver\): whsec_\S{32}$/m,
    );

    const listed = await cli('list');
    assert.match(listed.stdout, /^ENDPOINT\s+URL\s+STATE\s+EVENTS\s+NOTE$/m);
    assert.match(
      listed.stdout,
      new RegExp(
        `^${id}\\s+https://los\\.lender\\.example/hooks\\s+on\\s+borrower\\.registered,documents\\.signed\\s+Origination$`,
        'm',
      ),
    );
    assert.ok(!listed.stdout.includes('whsec_'), 'the secret is never listed');

    assert.equal(
      (await cli('disable', id)).stdout,
      `Endpoint ${id} (https://los.lender.example/hooks) is off.`,
    );
    assert.match((await cli('list')).stdout, /\s+off\s+/);
    assert.equal(
      (await cli('enable', id)).stdout,
      `Endpoint ${id} (https://los.lender.example/hooks) is on.`,
    );
    assert.equal((await cli('deliveries')).stdout, 'No delivery matches.');
  });

  it('refuses bad arguments with exit 2, and an unknown endpoint with exit 1', async () => {
    const cases: Array<[string[], RegExp]> = [
      [[], /webhooks takes one of: list, add/],
      [['add'], /--url: /],
      [
        ['add', '--url', 'https://x.example', '--events', 'loan.deleted'],
        /--events: An event type is one of/,
      ],
      [['replay'], /webhooks replay needs an id/],
      [['list', 'extra'], /webhooks list takes no id/],
      [['deliveries', '--status', 'lost'], /--status: /],
    ];
    for (const [args, message] of cases) {
      const refused = await cli(...args);
      assert.deepEqual(
        [refused.code, message.test(refused.stderr)],
        [2, true],
        `${args.join(' ')}: ${refused.stderr}`,
      );
    }
    const unknown = await cli('disable', '00000000-0000-4000-8000-000000000000');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /No webhook endpoint has that id\./);
  });
});
