import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { sameOriginPath } from '@customer-core/contracts';
import type * as ReturnPath from '../src/lib/return-path.ts';
import {
  OPEN_REDIRECT_PAYLOADS,
  assertSameOriginPath,
} from '../../../packages/contracts/test/support/open-redirect.ts';

type ReturnPathModule = typeof ReturnPath;

// The portal keeps the address a borrower asked for in sessionStorage, and reads it back after sign-in.
const stored = new Map<string, string>();

describe('the portal restores only same-origin addresses after sign-in', () => {
  let returnPath: ReturnPathModule;
  before(async () => {
    Object.defineProperty(globalThis, 'sessionStorage', {
      configurable: true,
      value: {
        getItem: (key: string) => stored.get(key) ?? null,
        setItem: (key: string, value: string) => void stored.set(key, String(value)),
        removeItem: (key: string) => void stored.delete(key),
      },
    });
    returnPath = await import('../src/lib/return-path.ts');
  });

  it(`saved, tampered with or not, and read back: ${OPEN_REDIRECT_PAYLOADS.length} open-redirect payloads`, () => {
    for (const payload of OPEN_REDIRECT_PAYLOADS) {
      returnPath.saveReturnPath(payload);
      assertSameOriginPath(payload, returnPath.peekReturnPath(), sameOriginPath);
      assertSameOriginPath(payload, returnPath.readSavedReturnPath(), sameOriginPath);
      // Another script of the origin (or an extension) writes the stored value directly.
      for (const [key] of stored) stored.set(key, payload);
      assertSameOriginPath(payload, returnPath.peekReturnPath(), sameOriginPath);
      assertSameOriginPath(payload, returnPath.readSavedReturnPath(), sameOriginPath);
      returnPath.clearReturnPath();
    }
    returnPath.saveReturnPath('/ui/dashboard/loan-checkout/42?tab=docs');
    assert.equal(returnPath.peekReturnPath(), '/ui/dashboard/loan-checkout/42?tab=docs');
  });
});
