import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ActivityCursorSchema,
  CalendarDateSchema,
  findControlCharacter,
  MAX_INPUT_DEPTH,
  nestsTooDeep,
} from '../src/index.js';

const nested = (depth: number, leaf: unknown = 'leaf'): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i += 1) value = i % 2 ? [value] : { a: value };
  return value;
};

describe('input depth', () => {
  it('allows input up to the limit and refuses it one level past, arrays and objects alike', () => {
    assert.equal(nestsTooDeep(nested(MAX_INPUT_DEPTH)), false);
    assert.equal(nestsTooDeep(nested(MAX_INPUT_DEPTH + 1)), true);
    assert.equal(nestsTooDeep({ shallow: 1, deep: nested(MAX_INPUT_DEPTH) }), true);
    for (const flat of ['text', 1, null, undefined, {}, []]) assert.equal(nestsTooDeep(flat), false);
  });

  it('measures and searches input far deeper than a call stack holds', () => {
    const deep = JSON.parse(`${'['.repeat(50_000)}"x\\u0000"${']'.repeat(50_000)}`) as unknown;
    assert.equal(nestsTooDeep(deep), true);
    assert.equal(findControlCharacter(deep)?.length, 2 * 50_000 - 1);
    assert.equal(findControlCharacter(JSON.parse(`${'['.repeat(50_000)}1${']'.repeat(50_000)}`)), undefined);
  });
});

describe('instants a client names', () => {
  it('a calendar date is a day of the years 0001 to 9999', () => {
    for (const day of ['0001-01-01', '2024-02-29', '9999-12-31'])
      assert.equal(CalendarDateSchema.safeParse(day).success, true, day);
    for (const day of ['0000-01-01', '2026-02-30', '2023-02-29', '+10000-01-01', ''])
      assert.equal(CalendarDateSchema.safeParse(day).success, false, day);
  });

  it('a page cursor names a time the database holds', () => {
    const id = 'aZ_-0';
    assert.equal(
      ActivityCursorSchema.safeParse(`${Date.parse('2026-01-01').toString(36)}.${id}`).success,
      true,
    );
    for (const time of [8.64e15, 8.64e15 + 1, 2 ** 53, Date.parse('9999-12-31T23:59:59.999Z') + 1])
      assert.equal(ActivityCursorSchema.safeParse(`${time.toString(36)}.${id}`).success, false, String(time));
  });
});
