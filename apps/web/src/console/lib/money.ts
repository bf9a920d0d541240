// Amounts as staff type them, in dollars ("1,250.50", "$980"), and as the API takes them, in whole cents.

/** Dollars and at most two decimals, with optional thousands separators and a leading "$". */
const DOLLARS = /^\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/;

/** "1,250.50" -> 125050; null for anything that is not an amount of dollars and cents. */
export function dollarsToCents(text: string): number | null {
  const match = DOLLARS.exec(text.trim());
  if (!match) return null;
  const dollars = Number(match[1]!.replaceAll(',', ''));
  const cents = Number((match[2] ?? '').padEnd(2, '0'));
  const total = dollars * 100 + cents;
  return Number.isSafeInteger(total) ? total : null;
}

/** 125050 -> "1250.50": a value for an amount field, as it would be typed. */
export const centsToDollars = (cents: number): string =>
  `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
