import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  addBankingDays,
  bankingDayOnOrAfter,
  beforeCutoff,
  cutoffInstant,
  dayIn,
  earliestEffectiveDate,
  isBankingDay,
  nextBankingDay,
  previousBankingDay,
  sendByDay,
  type BankCalendar,
} from '../src/payments/banking-days.js';

/** A bank taking files for the next banking day until 5 p.m. Eastern. */
const NEW_YORK: BankCalendar = { timeZone: 'America/New_York', cutoff: '17:00' };
const at = (iso: string) => new Date(iso);

describe('Fed holidays (payments.md section 6)', () => {
  // The table's holidays on weekdays: each is closed, the days around it open.
  const closed2026 = [
    '2026-01-01', // New Year's Day, Thu
    '2026-01-19', // Martin Luther King Jr., Mon
    '2026-02-16', // Washington's Birthday, Mon
    '2026-05-25', // Memorial Day, Mon
    '2026-06-19', // Juneteenth, Fri
    '2026-09-07', // Labor Day, Mon
    '2026-10-12', // Columbus Day, Mon
    '2026-11-11', // Veterans Day, Wed
    '2026-11-26', // Thanksgiving, Thu
    '2026-12-25', // Christmas, Fri
  ];
  const closed2027 = [
    '2027-01-01', // New Year's Day, Fri
    '2027-01-18', // Martin Luther King Jr., Mon
    '2027-02-15', // Washington's Birthday, Mon
    '2027-05-31', // Memorial Day, Mon
    '2027-07-05', // Independence Day on Sunday Jul 4: closed the Monday after
    '2027-09-06', // Labor Day, Mon
    '2027-10-11', // Columbus Day, Mon
    '2027-11-11', // Veterans Day, Thu
    '2027-11-25', // Thanksgiving, Thu
  ];

  it('closes every holiday of 2026 and 2027 that falls on a weekday or a Sunday', () => {
    for (const day of [...closed2026, ...closed2027]) assert.equal(isBankingDay(day), false, day);
  });

  it('keeps every other weekday of 2026 and 2027 open', () => {
    const closed = new Set([...closed2026, ...closed2027]);
    let open = 0;
    for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2028, 0, 1); ms += 86_400_000) {
      const date = new Date(ms);
      const day = date.toISOString().slice(0, 10);
      const weekend = date.getUTCDay() === 0 || date.getUTCDay() === 6;
      assert.equal(isBankingDay(day), !weekend && !closed.has(day), day);
      if (isBankingDay(day)) open++;
    }
    // 261 weekdays in 2026 less 10 holidays, 261 in 2027 less 9.
    assert.equal(open, 251 + 252);
  });

  it('closes nothing for a Saturday holiday: the Friday before is a banking day', () => {
    assert.equal(isBankingDay('2026-07-04'), false); // Saturday, as any Saturday
    assert.equal(isBankingDay('2026-07-03'), true);
    assert.equal(isBankingDay('2026-07-06'), true);
    assert.equal(isBankingDay('2027-06-18'), true); // Juneteenth on Saturday Jun 19
    assert.equal(isBankingDay('2027-12-24'), true); // Christmas on Saturday Dec 25
    assert.equal(isBankingDay('2027-12-27'), true);
    assert.equal(isBankingDay('2027-12-31'), true); // New Year's Day 2028 on Saturday
  });

  it('closes the Monday after a Sunday holiday only', () => {
    assert.equal(isBankingDay('2027-07-02'), true);
    assert.equal(isBankingDay('2027-07-05'), false);
    assert.equal(isBankingDay('2027-07-06'), true);
    // Christmas 2022 and New Year's Day 2023 were Sundays.
    assert.equal(isBankingDay('2022-12-26'), false);
    assert.equal(isBankingDay('2023-01-02'), false);
  });

  it('finds the holidays of any year by rule', () => {
    assert.equal(isBankingDay('2026-11-26'), false); // 4th Thursday of November
    assert.equal(isBankingDay('2030-05-27'), false); // last Monday of May
    assert.equal(isBankingDay('2030-05-20'), true);
    assert.equal(isBankingDay('2031-01-20'), false); // 3rd Monday of January
    assert.equal(isBankingDay('2031-11-27'), false); // 4th Thursday of November
    assert.equal(isBankingDay('2031-11-20'), true);
  });

  it('refuses what is not a day', () => {
    for (const day of ['2026-02-30', '2026-1-5', '2026-13-01', '', '2026-03-10T00:00:00Z']) {
      assert.throws(() => isBankingDay(day), RangeError, day);
    }
  });
});

describe('moving by banking days', () => {
  it('steps over weekends and holidays, strictly after or before', () => {
    assert.equal(nextBankingDay('2026-11-25'), '2026-11-27'); // over Thanksgiving
    assert.equal(nextBankingDay('2026-07-02'), '2026-07-03');
    assert.equal(nextBankingDay('2026-07-03'), '2026-07-06');
    assert.equal(nextBankingDay('2027-07-02'), '2027-07-06'); // over the weekend and Mon Jul 5
    assert.equal(nextBankingDay('2027-12-31'), '2028-01-03');
    assert.equal(nextBankingDay('2026-12-31'), '2027-01-04'); // over New Year's Day and the weekend
    assert.equal(previousBankingDay('2027-07-06'), '2027-07-02');
    assert.equal(previousBankingDay('2026-11-27'), '2026-11-25');
    assert.equal(previousBankingDay('2027-01-04'), '2026-12-31');
    assert.equal(previousBankingDay('2026-03-10'), '2026-03-09');
  });

  it('rolls a non-banking day to the next banking day', () => {
    assert.equal(bankingDayOnOrAfter('2026-11-24'), '2026-11-24');
    assert.equal(bankingDayOnOrAfter('2026-11-26'), '2026-11-27');
    assert.equal(bankingDayOnOrAfter('2026-07-04'), '2026-07-06');
    assert.equal(bankingDayOnOrAfter('2027-07-04'), '2027-07-06');
  });

  it('adds and subtracts banking days', () => {
    assert.equal(addBankingDays('2026-11-25', 0), '2026-11-25');
    assert.equal(addBankingDays('2026-07-04', 0), '2026-07-04');
    assert.equal(addBankingDays('2026-11-25', 1), '2026-11-27');
    assert.equal(addBankingDays('2026-11-25', 2), '2026-11-30');
    assert.equal(addBankingDays('2027-12-23', 2), '2027-12-27');
    assert.equal(addBankingDays('2026-11-30', -2), '2026-11-25');
    assert.equal(addBankingDays('2026-01-02', 11), '2026-01-20'); // over MLK day
    assert.throws(() => addBankingDays('2026-11-25', 1.5), RangeError);
    assert.throws(() => addBankingDays('2026-11-31', 0), RangeError);
  });
});

describe('cut-offs', () => {
  it('gives the local day of an instant in the zone', () => {
    assert.equal(dayIn('America/New_York', at('2026-03-10T01:00:00Z')), '2026-03-09');
    assert.equal(dayIn('America/New_York', at('2026-03-10T04:00:00Z')), '2026-03-10');
    assert.equal(dayIn('America/Los_Angeles', at('2026-01-01T07:59:59Z')), '2025-12-31');
    assert.equal(dayIn('Asia/Kolkata', at('2026-03-09T18:30:00Z')), '2026-03-10');
  });

  it('puts the cut-off at local time, with the day’s own offset across DST changes', () => {
    assert.equal(cutoffInstant(NEW_YORK, '2026-03-06').toISOString(), '2026-03-06T22:00:00.000Z'); // EST
    assert.equal(cutoffInstant(NEW_YORK, '2026-03-09').toISOString(), '2026-03-09T21:00:00.000Z'); // EDT
    assert.equal(cutoffInstant(NEW_YORK, '2026-10-30').toISOString(), '2026-10-30T21:00:00.000Z'); // EDT
    assert.equal(cutoffInstant(NEW_YORK, '2026-11-02').toISOString(), '2026-11-02T22:00:00.000Z'); // EST
    const pacific = { timeZone: 'America/Los_Angeles', cutoff: '15:00' };
    assert.equal(cutoffInstant(pacific, '2026-07-01').toISOString(), '2026-07-01T22:00:00.000Z');
    const india = { timeZone: 'Asia/Kolkata', cutoff: '09:45' };
    assert.equal(cutoffInstant(india, '2026-07-01').toISOString(), '2026-07-01T04:15:00.000Z');
  });

  it('reads a skipped time as after the jump and a repeated one as its first occurrence', () => {
    // 2:30 does not exist on 2026-03-08 in New York; 1:30 happens twice on 2026-11-01.
    const skipped = { timeZone: 'America/New_York', cutoff: '02:30' };
    assert.equal(cutoffInstant(skipped, '2026-03-08').toISOString(), '2026-03-08T07:30:00.000Z');
    const repeated = { timeZone: 'America/New_York', cutoff: '01:30' };
    assert.equal(cutoffInstant(repeated, '2026-11-01').toISOString(), '2026-11-01T05:30:00.000Z');
    assert.equal(
      cutoffInstant({ timeZone: 'UTC', cutoff: '00:00' }, '2026-03-08').toISOString(),
      '2026-03-08T00:00:00.000Z',
    );
  });

  it('refuses a malformed cut-off or an unknown zone', () => {
    assert.throws(
      () => cutoffInstant({ timeZone: 'America/New_York', cutoff: '5pm' }, '2026-03-09'),
      RangeError,
    );
    assert.throws(
      () => cutoffInstant({ timeZone: 'America/New_York', cutoff: '24:00' }, '2026-03-09'),
      RangeError,
    );
    assert.throws(
      () => cutoffInstant({ timeZone: 'Mars/Olympus', cutoff: '17:00' }, '2026-03-09'),
      RangeError,
    );
  });

  it('sends a payment by the banking day before its effective date', () => {
    assert.equal(sendByDay('2026-03-10'), '2026-03-09');
    assert.equal(sendByDay('2026-03-09'), '2026-03-06');
    assert.equal(sendByDay('2026-11-27'), '2026-11-25');
    assert.equal(sendByDay('2027-07-06'), '2027-07-02');
  });
});

describe('earliest effective date', () => {
  const earliest = (iso: string, calendar = NEW_YORK) => earliestEffectiveDate(calendar, at(iso));

  it('is the next banking day before the cut-off, the one after from the cut-off on', () => {
    assert.equal(earliest('2026-03-10T20:59:59Z'), '2026-03-11'); // Tue 16:59:59 EDT
    assert.equal(earliest('2026-03-10T21:00:00Z'), '2026-03-12'); // Tue 17:00 EDT: too late
    assert.equal(earliest('2026-03-10T12:00:00Z'), '2026-03-11');
    // Tue 21:00 EDT is Wednesday in UTC: the bank's day decides.
    assert.equal(earliest('2026-03-11T01:00:00Z'), '2026-03-12');
  });

  it('goes over a weekend', () => {
    assert.equal(earliest('2026-03-13T20:00:00Z'), '2026-03-16'); // Fri 16:00 EDT
    assert.equal(earliest('2026-03-13T22:00:00Z'), '2026-03-17'); // Fri 18:00 EDT
    assert.equal(earliest('2026-03-14T15:00:00Z'), '2026-03-17'); // Saturday
    assert.equal(earliest('2026-03-15T23:00:00Z'), '2026-03-17'); // Sunday evening
  });

  it('goes over a holiday', () => {
    assert.equal(earliest('2026-11-25T21:00:00Z'), '2026-11-27'); // Wed 16:00 EST before Thanksgiving
    assert.equal(earliest('2026-11-25T22:00:00Z'), '2026-11-30'); // Wed 17:00 EST: sent Fri
    assert.equal(earliest('2026-11-26T15:00:00Z'), '2026-11-30'); // on Thanksgiving
    assert.equal(earliest('2027-07-02T20:00:00Z'), '2027-07-06'); // Fri before the closed Mon Jul 5
    assert.equal(earliest('2027-07-02T21:00:00Z'), '2027-07-07');
    assert.equal(earliest('2026-07-02T21:00:00Z'), '2026-07-06'); // sent Fri Jul 3, open though Jul 4 is a holiday
  });

  it('follows the cut-off’s local time through the DST change weeks', () => {
    // Fri 2026-03-06 is EST (17:00 = 22:00Z), Mon 2026-03-09 EDT (17:00 = 21:00Z).
    assert.equal(earliest('2026-03-06T21:30:00Z'), '2026-03-09'); // Fri 16:30 EST
    assert.equal(earliest('2026-03-06T22:00:00Z'), '2026-03-10');
    assert.equal(earliest('2026-03-09T20:30:00Z'), '2026-03-10'); // Mon 16:30 EDT
    assert.equal(earliest('2026-03-09T21:30:00Z'), '2026-03-11'); // Mon 17:30 EDT
    // Fri 2026-10-30 is EDT, Mon 2026-11-02 EST.
    assert.equal(earliest('2026-10-30T21:30:00Z'), '2026-11-03'); // Fri 17:30 EDT
    assert.equal(earliest('2026-11-02T21:30:00Z'), '2026-11-03'); // Mon 16:30 EST
    assert.equal(earliest('2026-11-02T22:00:00Z'), '2026-11-04');
  });

  it('reads the cut-off in the bank’s own zone', () => {
    const pacific = { timeZone: 'America/Los_Angeles', cutoff: '15:00' };
    assert.equal(earliest('2026-03-09T21:30:00Z', pacific), '2026-03-10'); // Mon 14:30 PDT
    assert.equal(earliest('2026-03-09T22:00:00Z', pacific), '2026-03-11'); // Mon 15:00 PDT
  });
});

describe('changes before the cut-off', () => {
  it('allows a change until the cut-off of the send-by day, not at it', () => {
    // Effective Fri 2026-11-27: sent by Wed 2026-11-25, 17:00 EST.
    assert.equal(beforeCutoff(NEW_YORK, '2026-11-27', at('2026-11-25T21:59:59Z')), true);
    assert.equal(beforeCutoff(NEW_YORK, '2026-11-27', at('2026-11-25T22:00:00Z')), false);
    assert.equal(beforeCutoff(NEW_YORK, '2026-11-27', at('2026-11-26T15:00:00Z')), false);
    // Effective Tue 2027-07-06: sent by Fri 2027-07-02, 17:00 EDT.
    assert.equal(beforeCutoff(NEW_YORK, '2027-07-06', at('2027-07-02T20:59:00Z')), true);
    assert.equal(beforeCutoff(NEW_YORK, '2027-07-06', at('2027-07-05T12:00:00Z')), false);
  });

  it('agrees with the earliest effective date', () => {
    for (const iso of [
      '2026-03-06T21:30:00Z',
      '2026-03-09T21:30:00Z',
      '2026-11-25T22:00:00Z',
      '2027-07-02T20:00:00Z',
    ]) {
      const now = at(iso);
      const earliest = earliestEffectiveDate(NEW_YORK, now);
      assert.equal(beforeCutoff(NEW_YORK, earliest, now), true, iso);
      assert.equal(beforeCutoff(NEW_YORK, previousBankingDay(earliest), now), false, iso);
    }
  });
});
