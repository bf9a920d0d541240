import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { z } from 'zod';
import { AccountNumberSchema, isValidRoutingNumber, RoutingNumberSchema } from '@customer-core/contracts';

const messages = (schema: z.ZodType, input: unknown) =>
  schema.safeParse(input).error?.issues.map((i) => i.message) ?? [];

describe('routing number check (payments.md section 2)', () => {
  it('accepts numbers whose 3-7-1 sum is a multiple of 10', () => {
    assert.equal(isValidRoutingNumber('021000021'), true); // sum 30
    assert.equal(isValidRoutingNumber('121042882'), true); // sum 130
    assert.equal(isValidRoutingNumber('026009593'), true);
    assert.equal(isValidRoutingNumber('011000138'), true);
  });

  it('refuses a wrong check digit', () => {
    assert.equal(isValidRoutingNumber('021000022'), false); // sum 31
    assert.equal(isValidRoutingNumber('121042883'), false);
  });

  it('refuses a prefix outside 00-12, 21-32, 61-72 and 80', () => {
    // Each of these has a good check digit: only the prefix is wrong.
    for (const number of [
      '130000006',
      '200000004',
      '330000000',
      '600000002',
      '730000008',
      '810000009',
      '990000000',
    ]) {
      assert.equal(isValidRoutingNumber(number), false, number);
    }
    for (const number of [
      '000000518',
      '120000003',
      '210000007',
      '320000007',
      '610000005',
      '720000005',
      '800000006',
    ]) {
      assert.equal(isValidRoutingNumber(number), true, number);
    }
  });

  it('refuses anything but 9 digits', () => {
    for (const value of [
      '',
      '02100002',
      '0210000210',
      '02100002a',
      '021 000 21',
      ' 021000021',
      '０２１００００２１',
      '000000000',
    ]) {
      assert.equal(isValidRoutingNumber(value), false, value);
    }
  });
});

describe('routing number field', () => {
  it('asks for 9 digits before checking the number', () => {
    assert.deepEqual(messages(RoutingNumberSchema, ''), ['Enter the 9-digit routing number.']);
    assert.deepEqual(messages(RoutingNumberSchema, '02100002'), ['Enter the 9-digit routing number.']);
    assert.deepEqual(messages(RoutingNumberSchema, '02100002x'), ['Enter the 9-digit routing number.']);
    assert.deepEqual(messages(RoutingNumberSchema, 21000021), ['Enter the 9-digit routing number.']);
  });

  it('says when the number is not a routing number', () => {
    assert.deepEqual(messages(RoutingNumberSchema, '021000022'), [
      'This routing number isn’t valid. Check it on a cheque or with your bank.',
    ]);
    assert.deepEqual(messages(RoutingNumberSchema, '990000000'), [
      'This routing number isn’t valid. Check it on a cheque or with your bank.',
    ]);
  });

  it('takes a valid number, spaces around it dropped', () => {
    assert.equal(RoutingNumberSchema.parse(' 021000021 '), '021000021');
  });
});

describe('account number field', () => {
  it('takes 4 to 17 digits', () => {
    assert.equal(AccountNumberSchema.parse('1234'), '1234');
    assert.equal(AccountNumberSchema.parse(' 12345678901234567 '), '12345678901234567');
    assert.equal(AccountNumberSchema.parse('000123'), '000123');
  });

  it('refuses anything else', () => {
    for (const value of ['', '123', '123456789012345678', '1234-5678', '12 34', 'abcd', 1234]) {
      assert.deepEqual(
        messages(AccountNumberSchema, value),
        ['Enter the account number: 4 to 17 digits.'],
        String(value),
      );
    }
  });
});
