import './support/dom.ts';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeFailure } from '../src/lib/api-failure.ts';
import './support/i18n.ts';

const OFFLINE_MESSAGE = 'We couldn’t reach our server. Check your internet connection, then try again.';
const TOO_MANY_MESSAGE = 'Too many attempts in a short time. Please wait a minute, then try again.';

const FALLBACK = 'We could not do it just now.';
const failure = (status: number, body: unknown) => ({
  isError: true as const,
  status,
  responseText: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('describeFailure', () => {
  it("keeps the API's code and its message for a 4xx answer", () => {
    const described = describeFailure(
      failure(400, { error: 'password_too_common', message: 'This password is too common.' }),
      FALLBACK,
    );
    assert.deepEqual(described, {
      code: 'password_too_common',
      serverMessage: 'This password is too common.',
      message: FALLBACK,
    });
  });

  it('never passes on a 5xx body, a status or an unreadable answer', () => {
    const serverError = describeFailure(
      failure(500, { error: 'internal', message: 'Internal Server Error', requestId: 'r1' }),
      FALLBACK,
    );
    assert.equal(serverError.serverMessage, null);
    assert.equal(serverError.message, FALLBACK);
    const html = describeFailure(failure(502, '<html>Bad gateway</html>'), FALLBACK);
    assert.deepEqual(html, { code: null, serverMessage: null, message: FALLBACK });
  });

  it('tells the borrower when the server could not be reached', () => {
    const offline = describeFailure(
      { isError: true, status: 500, responseText: 'Failed to fetch', exceptionThrown: true },
      FALLBACK,
    );
    assert.deepEqual(offline, { code: null, serverMessage: null, message: OFFLINE_MESSAGE });
  });

  it('asks to wait after too many attempts', () => {
    const limited = describeFailure(
      failure(429, { error: 'too_many_requests', message: 'Slow down' }),
      FALLBACK,
    );
    assert.equal(limited.message, TOO_MANY_MESSAGE);
  });

  it('drops an overlong server message', () => {
    const long = describeFailure(failure(400, { error: 'bad_request', message: 'x'.repeat(500) }), FALLBACK);
    assert.equal(long.serverMessage, null);
  });
});
