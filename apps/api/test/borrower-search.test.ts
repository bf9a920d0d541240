import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { operatorEndpoints, type BorrowerList } from '@customer-core/contracts';
import { runCli } from '../src/cli/run.js';
import { startTestServer, type TestServer } from '../testing/index.js';
import { activeLoan, addLoan, call, OPERATOR_ENV, OPERATOR_SECRET } from './support/loans.js';

// Support finds the borrower on the phone by name, e-mail address or loan reference: the operators'
// list with ?q=, and `npm run cli -- list-borrowers --search`.

describe('finding a borrower', () => {
  let server: TestServer;
  let url: string;
  const run = Date.now().toString(36);
  const reference = `LN-FIND${run.toUpperCase()}`;

  before(async () => {
    server = await startTestServer('pglite', OPERATOR_ENV);
    url = server.baseUrl;
    for (const [first, last, email] of [
      ['Ada', 'Lovelace', `ada.${run}@engines.example`],
      ['Grace', 'Hopper', `grace.${run}@compilers.example`],
      ['Percy', 'Cent_100%', `percy.${run}@wild.example`],
    ])
      assert.equal(
        (
          await call(url, 'POST', operatorEndpoints.invitations.path, OPERATOR_SECRET, {
            email,
            firstName: first,
            lastName: last,
          })
        ).status,
        201,
      );
    assert.equal((await addLoan(url, activeLoan(reference, `grace.${run}@compilers.example`))).status, 201);
  });
  after(() => server?.close());

  const found = async (q: string) => {
    const answer = await call(
      url,
      'GET',
      `${operatorEndpoints.borrowers.path}?q=${encodeURIComponent(q)}`,
      OPERATOR_SECRET,
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return (answer.body as BorrowerList).borrowers.map((borrower) => borrower.lastName);
  };

  it('by part of a name or an e-mail address, in any case, and by the start of a loan reference', async () => {
    assert.deepEqual(await found('lovel'), ['Lovelace']);
    assert.deepEqual(await found('ADA LOVELACE'), ['Lovelace']);
    assert.deepEqual(await found(`@compilers`), ['Hopper']);
    assert.deepEqual(await found(reference.slice(0, 8)), ['Hopper']);
    assert.deepEqual(await found(reference.slice(3)), [], 'a reference is found by its start');
    // A wildcard is a character like any other.
    assert.deepEqual(await found('t_1'), ['Cent_100%']);
    assert.deepEqual(await found('%'.repeat(2)), []);
    assert.deepEqual(await found('__'), []);
  });

  it('refuses a search too short, too long or on two lines; lists every borrower without one', async () => {
    for (const q of ['a', 'x'.repeat(101), 'two\nlines'])
      assert.equal(
        (
          await call(
            url,
            'GET',
            `${operatorEndpoints.borrowers.path}?q=${encodeURIComponent(q)}`,
            OPERATOR_SECRET,
          )
        ).status,
        400,
        q,
      );
    const all = await call(url, 'GET', operatorEndpoints.borrowers.path, OPERATOR_SECRET);
    assert.ok((all.body as BorrowerList).borrowers.length >= 3);
  });

  it('is npm run cli -- list-borrowers --search', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const cli = (...args: string[]) =>
      runCli(
        args,
        { PORTAL_URL: url, OPERATOR_CREDENTIAL: OPERATOR_SECRET },
        { out: (l) => out.push(l), err: (l) => err.push(l) },
      );
    assert.equal(await cli('list-borrowers', '--search', 'hopper'), 0, err.join('\n'));
    assert.match(
      out.join('\n'),
      new RegExp(`^grace\\.${run}@compilers\\.example\\s+Grace Hopper\\s+invited\\s+1\\s+`, 'm'),
    );
    assert.match(out.join('\n'), /^1 borrower\.$/m);
    out.length = 0;
    assert.equal(await cli('list-borrowers', '--search', 'nobody-here'), 0);
    assert.deepEqual(out, ['No borrower matches "nobody-here".']);
    assert.equal(await cli('list-borrowers', '--search', 'x'), 2);
  });
});
