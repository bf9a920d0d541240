/**
 * A micro-deposit's amount as the borrower types it, in cents: "17", "17¢" or "17 cents" as cents;
 * "$0.17", "0.17", ".17" (or "0,17") as dollars. NaN for anything else, which the schema refuses
 * with its message. Under a dollar only: a micro-deposit is 1 to 99 cents.
 */
export function microAmountCents(typed: string): number {
  const value = typed.trim().replace(/\s+/g, ' ');
  const cents = /^(\d{1,3})\s?(¢|c|cents?|centavos?)?$/i.exec(value);
  if (cents) return Number(cents[1]);
  const dollars = /^(?:US)?\$?\s?0?[.,](\d{1,2})$/i.exec(value);
  if (dollars) return Number(dollars[1]!.padEnd(2, '0'));
  return Number.NaN;
}
