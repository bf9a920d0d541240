import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dayIn, earliestEffectiveDate, nextBankingDay } from '../src/payments/banking-days.js';
import { nachaRail } from '../src/payments/payment-rail.js';
import { TEST_ACH_SETTINGS } from '../testing/index.js';
import { parsedNachaFile } from '../testing/payments.js';

// The bank's file of a run made the day before Thanksgiving, after the cut-off, as the bank reads it
// (another NACHA package): the micro-deposits effective the next banking day (Friday: Thursday is a
// holiday), a payment asked for then on the earliest day it could have (the Monday after).

const CALENDAR = { timeZone: 'America/New_York', cutoff: '14:00' };
const ORIGINATOR = {
  immediateDestination: TEST_ACH_SETTINGS.ACH_IMMEDIATE_DESTINATION,
  immediateDestinationName: 'FIRST EXAMPLE BANK',
  immediateOrigin: TEST_ACH_SETTINGS.ACH_IMMEDIATE_ORIGIN,
  immediateOriginName: 'MAIN STREET FUNDING',
  companyName: 'MAIN STREET FUND',
  companyId: TEST_ACH_SETTINGS.ACH_COMPANY_ID,
  odfiRouting: TEST_ACH_SETTINGS.ACH_ODFI_ROUTING,
};
const party = {
  holderName: 'Demo Supplies LLC',
  routingNumber: '021000021',
  accountType: 'checking' as const,
};

describe('the bank’s file around a holiday', () => {
  it('dates each batch on a banking day: micro-deposits the next one, a payment the earliest it could', () => {
    const at = new Date('2026-11-25T20:00:00Z'); // Wednesday 15:00 in New York, past the cut-off
    const today = dayIn(CALENDAR.timeZone, at);
    const paymentDay = earliestEffectiveDate(CALENDAR, at);
    assert.deepEqual([today, nextBankingDay(today), paymentDay], ['2026-11-25', '2026-11-27', '2026-11-30']);

    const submitted = nachaRail(ORIGINATOR, CALENDAR.timeZone).submit({
      createdAt: at,
      fileIdModifier: 'A',
      verificationsOn: nextBankingDay(today),
      debits: [
        {
          ...party,
          id: 'p1',
          reference: 'P-ABCDEFGHJK',
          amountCents: 236_111,
          effectiveOn: paymentDay,
          accountNumber: '12345678',
        },
      ],
      verifications: [{ ...party, id: 'a1', accountNumber: '87654321' }],
      traceSequences: [11, 12, 13, 14],
    });
    const { batches } = parsedNachaFile(submitted.file.text);
    assert.deepEqual(
      batches.map((b) => [b.description.trim(), b.effectiveDate, b.serviceClassCode, b.entries.length]),
      [
        ['LOAN PYMT', '261130', 225, 1],
        ['ACCTVERIFY', '261127', 200, 3],
      ],
    );
    const [credit1, credit2, offset] = batches[1]!.entries;
    assert.equal(offset!.amount, credit1!.amount + credit2!.amount, 'the offsetting debit nets the credits');
    assert.deepEqual(submitted.verifications.get('a1')!.amounts, [credit1!.amount, credit2!.amount]);
    assert.equal(submitted.debitTraces.get('p1'), '091000010000011');
  });
});
