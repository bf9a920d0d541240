import assert from 'node:assert/strict';
import { PASSWORD_RULES } from '@customer-core/contracts';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';

/** Puts a whole value in a field at once, as a paste does. */
export const type = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } });

/** Clicks the button of this name, and lets what the click starts settle. */
export const press = (name: string) =>
  act(async () => void fireEvent.click(screen.getByRole('button', { name })));

/** The password rule with this code. */
export const rule = (code: string) => PASSWORD_RULES.find((r) => r.code === code)!;

/**
 * Under a new-password field: the message of the rule each typed password breaks, then none once
 * `strong` meets them all.
 */
export async function expectEachRuleMessage(
  password: HTMLElement,
  shownError: () => string | null | undefined,
  strong: string,
): Promise<void> {
  for (const [typed, code] of [
    ['Short1', 'length'],
    ['alllowercase1', 'case'],
    ['NoNumbersHere', 'number'],
  ] as const) {
    type(password, typed);
    await waitFor(() => assert.equal(shownError(), rule(code).message));
  }
  type(password, strong);
  await waitFor(() => assert.equal(shownError(), undefined));
}
