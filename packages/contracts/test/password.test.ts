import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PasswordSetSchema } from '@customer-core/contracts';

const issues = (password: string, confirmPassword: string) =>
  PasswordSetSchema.safeParse({ password, confirmPassword }).error?.issues.map((i) => ({
    field: String(i.path[0]),
    code: (i as { params?: { code?: string } }).params?.code ?? null,
    message: i.message,
  })) ?? [];

describe('password-set rules (spec section 5)', () => {
  it('requires both fields, with the spec messages', () => {
    assert.deepEqual(issues('', ''), [
      { field: 'password', code: null, message: 'Password is required.' },
      { field: 'confirmPassword', code: null, message: 'Please confirm your password.' },
    ]);
  });

  it('names each unmet rule by its code', () => {
    assert.deepEqual(
      issues('abc', 'abc').map((i) => i.code),
      ['length', 'case', 'number'],
    );
    assert.deepEqual(
      issues('abcdefgh1', 'abcdefgh1').map((i) => i.code),
      ['case'],
    );
    assert.deepEqual(
      issues('Abcdefghi', 'Abcdefghi').map((i) => i.code),
      ['number'],
    );
  });

  it('accepts a symbol from the list instead of a digit', () => {
    assert.deepEqual(issues('Abcdefg!', 'Abcdefg!'), []);
  });

  it('asks the confirmation to match', () => {
    assert.deepEqual(issues('Abcdefg1', 'Abcdefg2'), [
      { field: 'confirmPassword', code: 'match', message: 'Passwords do not match.' },
    ]);
  });

  it('accepts a 64-character passphrase and refuses past the cap', () => {
    const long = `Aa1${'x'.repeat(61)}`;
    assert.deepEqual(issues(long, long), []);
    const tooLong = `Aa1${'x'.repeat(200)}`;
    assert.equal(issues(tooLong, tooLong)[0]?.message, 'Use at most 128 characters.');
  });
});
