import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { approximateAddress, deviceOf } from '../src/activity/device.js';

// What the account page shows of a sign-in's client: never its full address.

describe('a sign-in’s device and network', () => {
  it('keeps an IPv4 address’s /24 and an IPv6 address’s /64 only', () => {
    assert.equal(approximateAddress('203.0.113.77'), '203.0.113.0/24');
    assert.equal(approximateAddress('2001:db8:85a3:12:8a2e:370:7334:1'), '2001:db8:85a3:12::/64');
    assert.equal(approximateAddress('2001:db8::1'), '2001:db8:0:0::/64');
    assert.equal(approximateAddress('::1'), '0:0:0:0::/64');
    assert.equal(approximateAddress('unknown'), null);
  });

  it('names the browser and the system, or what of them the client said', () => {
    assert.deepEqual(
      deviceOf(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
      ),
      { browser: 'Safari', system: 'macOS' },
    );
    assert.deepEqual(deviceOf('Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0'), {
      browser: 'Firefox',
      system: 'Android',
    });
    assert.equal(deviceOf('curl/8.5.0'), null);
    assert.equal(deviceOf(''), null);
    assert.equal(deviceOf(null), null);
  });
});
