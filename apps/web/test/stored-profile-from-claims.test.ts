import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StoredProfileSchema } from '@customer-core/contracts';
import { storedProfileFromClaims } from '../src/lib/stored-profile-from-claims.ts';

describe('storedProfileFromClaims', () => {
  it('maps the user claims to the profile password sign-in stores', () => {
    const profile = storedProfileFromClaims({
      sub: '00u1',
      email: 'dana@example.com',
      preferred_username: 'dana@example.com',
      given_name: 'Dana',
      family_name: 'Demo',
      locale: 'en-US',
      zoneinfo: 'America/New_York',
    });
    assert.deepEqual(profile, {
      login: 'dana@example.com',
      firstName: 'Dana',
      lastName: 'Demo',
      locale: 'en_US',
      timeZone: 'America/New_York',
    });
    assert.deepEqual(StoredProfileSchema.parse(profile), profile);
  });

  it('falls back to the e-mail, then the subject, for the login; absent claims become null', () => {
    assert.deepEqual(storedProfileFromClaims({ sub: '00u1', email: 'dana@example.com' }), {
      login: 'dana@example.com',
      firstName: null,
      lastName: null,
      locale: null,
      timeZone: null,
    });
    assert.equal(storedProfileFromClaims({ sub: '00u1' }).login, '00u1');
  });
});
