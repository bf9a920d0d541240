import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PASSWORD_RULES } from '@customer-core/contracts';
import {
  checklistChange,
  checklistKey,
  passwordChecklist,
} from '../src/components/password-set/password-checklist-state.ts';

const met = (password: string) =>
  Object.fromEntries(passwordChecklist(password).map((item) => [item.code, item.met]));

describe('password checklist state', () => {
  it('lists every rule of the contract, in its order, with its label', () => {
    assert.deepEqual(
      passwordChecklist('').map(({ code, label }) => ({ code, label })),
      PASSWORD_RULES.map(({ code, label }) => ({ code, label })),
    );
  });

  it('marks nothing met for an empty password', () => {
    assert.deepEqual(met(''), { length: false, case: false, number: false });
  });

  it('marks each rule as the password grows', () => {
    assert.deepEqual(met('abc'), { length: false, case: false, number: false });
    assert.deepEqual(met('abcdefgh'), { length: true, case: false, number: false });
    assert.deepEqual(met('Abcdefgh'), { length: true, case: true, number: false });
    assert.deepEqual(met('Abcdefg1'), { length: true, case: true, number: true });
  });

  it('counts a symbol from the list as the number rule, and other symbols not', () => {
    assert.equal(met('Abcdefg!').number, true);
    assert.equal(met('Abcdefg)').number, true);
    assert.equal(met('Abcdefg-').number, false);
  });

  it('counts letters beyond ASCII for the case rule', () => {
    assert.equal(met('ÉCOLEété').case, true);
    assert.equal(met('ÉCOLE').case, false);
  });

  it('has a key that changes only when a rule flips', () => {
    assert.equal(checklistKey(passwordChecklist('abcdefgh')), checklistKey(passwordChecklist('zzzzzzzzz')));
    assert.notEqual(checklistKey(passwordChecklist('abcdefg')), checklistKey(passwordChecklist('abcdefgh')));
  });
});

describe('checklist announcements', () => {
  const change = (from: string, to: string) =>
    checklistChange(passwordChecklist(from), passwordChecklist(to));

  it('says nothing when no rule changed', () => {
    assert.equal(change('', ''), '');
    assert.equal(change('abc', 'abcd'), '');
    assert.equal(change('Abcdefg1', 'Abcdefg12'), '');
  });

  it('names a rule that became met', () => {
    assert.equal(change('abcdefg', 'abcdefgh'), 'Requirement met: At least 8 characters.');
  });

  it('names a rule that is no longer met', () => {
    assert.equal(change('abcdefgh', 'abcdefg'), 'Requirement not met: At least 8 characters.');
  });

  it('names every rule that changed at once (a paste), in checklist order', () => {
    assert.equal(
      change('', 'Abcdefgh'),
      'Requirement met: At least 8 characters. Requirement met: An uppercase and a lowercase letter.',
    );
  });

  it('says so when the last rule is met', () => {
    assert.equal(change('Abcdefgh', 'Abcdefgh1'), 'All password requirements are met.');
    assert.equal(change('', 'Abcdefg1'), 'All password requirements are met.');
  });
});
