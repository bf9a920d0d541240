import './support/dom.ts';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SIGN_IN_TRACE_COOKIE } from '@customer-core/contracts';
import { beginSignInTrace, endSignInTrace } from '../src/lib/auth/sign-in-trace.ts';

// The sign-in's trace context, in the cookie its requests carry to the server (decision 0011).

const traceparent = () => new RegExp(`(?:^|; )${SIGN_IN_TRACE_COOKIE}=([^;]*)`).exec(document.cookie)?.[1];

describe('the sign-in trace cookie', () => {
  it('holds a W3C traceparent while a sign-in runs, a new trace for each sign-in', () => {
    beginSignInTrace();
    const first = traceparent();
    assert.match(first ?? '', /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    assert.doesNotMatch(first!, /^00-0{32}-/, 'a valid (non-zero) trace id');
    beginSignInTrace();
    assert.notEqual(traceparent()?.slice(3, 35), first!.slice(3, 35));
    endSignInTrace();
    assert.equal(traceparent(), undefined, 'gone once the sign-in is over');
  });
});
