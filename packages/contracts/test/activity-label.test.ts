import assert from 'node:assert/strict';
import { test } from 'node:test';
import { securityEventLabel } from '@customer-core/contracts';

test('a factor added or removed says which kind; older events without one read as an app', () => {
  assert.equal(securityEventLabel({ kind: 'second_factor_added', factor: 'passkey' }), 'Passkey added');
  assert.equal(securityEventLabel({ kind: 'second_factor_removed', factor: 'passkey' }), 'Passkey removed');
  assert.equal(
    securityEventLabel({ kind: 'second_factor_added', factor: 'authenticator_app' }),
    'Authenticator app added',
  );
  assert.equal(
    securityEventLabel({ kind: 'second_factor_removed', factor: null }),
    'Authenticator app removed',
  );
  assert.equal(securityEventLabel({ kind: 'signed_in', factor: 'passkey' }), 'Signed in');
});
