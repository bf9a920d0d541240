import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { accountNameOf, signatureNameMatches } from '../src/index.js';

// A typed signature is the account's name, compared leniently, as an e-signature service does.

const DANA = { firstName: 'Dana', lastName: 'Demo' };

describe('a signature name', () => {
  it('matches the account’s name whatever the case, spaces, accents and full stops', () => {
    for (const typed of ['Dana Demo', 'dana demo', '  DANA   Demo ', 'Dána Démo', 'Dana Demo.'])
      assert.equal(signatureNameMatches(typed, DANA), true, typed);
  });

  it('takes one middle name or initial the account does not have', () => {
    for (const typed of ['Dana J. Demo', 'Dana J Demo', 'dana jane demo'])
      assert.equal(signatureNameMatches(typed, DANA), true, typed);
    assert.equal(signatureNameMatches('Dana Jane Joy Demo', DANA), false, 'two more');
  });

  it('takes the account’s own middle names as they are, as initials, or left out', () => {
    const mary = { firstName: 'Mary Ann', lastName: 'Smith-Jones' };
    for (const typed of [
      'Mary Ann Smith-Jones',
      'Mary A. Smith-Jones',
      'Mary Smith-Jones',
      'mary ann b smith-jones',
    ])
      assert.equal(signatureNameMatches(typed, mary), true, typed);
    assert.equal(signatureNameMatches('Mary Smith', mary), false, 'part of the last name');
  });

  it('refuses anything else: any text, a part of the name, another order, another name', () => {
    for (const typed of [
      'x',
      'Dana',
      'Demo',
      'Demo Dana',
      'Dan Demo',
      'Dana Demos',
      'Dana Demo Jr',
      '',
      '   ',
    ])
      assert.equal(signatureNameMatches(typed, DANA), false, typed);
  });

  it('refuses every name for an account without one', () => {
    const none = { firstName: null, lastName: null };
    assert.equal(accountNameOf(none), null);
    assert.equal(signatureNameMatches('Dana Demo', none), false);
    assert.equal(signatureNameMatches('', none), false);
    assert.equal(accountNameOf({ firstName: ' Dana ', lastName: null }), 'Dana');
  });
});
