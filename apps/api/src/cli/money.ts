// Operators type dollars; the API takes whole cents.

const DOLLARS = /^\$?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/;

/** Cents of an amount in dollars such as 250000, 250,000, $1250.5 or 1250.50; undefined if it is not one. */
export function centsOf(dollars: string): number | undefined {
  const match = DOLLARS.exec(dollars.trim());
  if (!match) return undefined;
  const [, whole = '', fraction = ''] = match;
  const cents = Number(whole.replaceAll(',', '')) * 100 + Number(fraction.padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : undefined;
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
export const dollarsOf = (cents: number) => usd.format(cents / 100);
