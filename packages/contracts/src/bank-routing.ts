import { z } from 'zod';

// A borrower's bank account for ACH debits: the routing number's own checks (design: payments.md
// section 2) and the account number's shape. The portal's form and the API share them, so a mistyped
// number is caught before it is sent, with the same words on both sides.

/**
 * First two digits of an ABA routing number: 00-12 (banks), 21-32 (thrifts), 61-72 (electronic
 * transactions) and 80 (traveller's cheques). Anything else is not a routing number.
 */
const ROUTING_PREFIX = /^(0\d|1[0-2]|2[1-9]|3[0-2]|6[1-9]|7[0-2]|80)/;
const NINE_DIGITS = /^\d{9}$/;

/**
 * Whether a value is an ABA routing number by its form alone: 9 digits, a known prefix and the 3-7-1
 * check digit. It does not prove the bank takes ACH entries: show the bank's name back to the borrower.
 */
export function isValidRoutingNumber(value: string): boolean {
  if (!NINE_DIGITS.test(value) || !ROUTING_PREFIX.test(value)) return false;
  // All zeros passes the sum but is a placeholder, never a bank.
  if (value === '000000000') return false;
  // Weights 3, 7, 1 repeating: 3(d1+d4+d7) + 7(d2+d5+d8) + (d3+d6+d9).
  const sum = [...value].reduce((total, digit, i) => total + Number(digit) * [3, 7, 1][i % 3]!, 0);
  return sum % 10 === 0;
}

export const ROUTING_NUMBER_LENGTH_MESSAGE = 'Enter the 9-digit routing number.';
export const ROUTING_NUMBER_INVALID_MESSAGE =
  'This routing number isn’t valid. Check it on a cheque or with your bank.';
export const ACCOUNT_NUMBER_MESSAGE = 'Enter the account number: 4 to 17 digits.';

/** A routing number as the borrower types it (spaces around it dropped). */
export const RoutingNumberSchema = z
  .string(ROUTING_NUMBER_LENGTH_MESSAGE)
  .trim()
  .regex(NINE_DIGITS, { message: ROUTING_NUMBER_LENGTH_MESSAGE, abort: true })
  .refine(isValidRoutingNumber, ROUTING_NUMBER_INVALID_MESSAGE);

/** An account number: digits only, 4 to 17 (the NACHA entry's field is 17 characters). */
export const AccountNumberSchema = z
  .string(ACCOUNT_NUMBER_MESSAGE)
  .trim()
  .regex(/^\d{4,17}$/, ACCOUNT_NUMBER_MESSAGE);
