import type { SecondFactor } from '@customer-core/contracts';

// What the account page says about the borrower's second sign-in steps, from the steps they have:
// never that signing in takes a code while they have none.

const has = (factors: SecondFactor[], type: SecondFactor['type']) =>
  factors.some((factor) => factor.type === type);

/** "a, b and c" */
export function listed(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The two-step row's state: its app and email codes ("Authenticator app and email codes"), or "None yet". */
export function waysSummary(factors: SecondFactor[]): string {
  const ways = [
    has(factors, 'authenticator_app') && 'authenticator app',
    has(factors, 'email_code') && 'email codes',
  ].filter((way): way is string => Boolean(way));
  return ways.length === 0 ? 'None yet' : capitalised(listed(ways));
}

/** What signing in takes now, passkeys included (a passkey is a second step after the password too). */
export function secondStepText(factors: SecondFactor[]): string {
  const codes = [
    has(factors, 'authenticator_app') && 'your authenticator app',
    has(factors, 'email_code') && 'your email',
  ]
    .filter((from): from is string => Boolean(from))
    .join(' or ');
  const steps = [codes && `a code from ${codes}`, has(factors, 'passkey') && 'your passkey'].filter(
    (step): step is string => Boolean(step),
  );
  if (steps.length === 0)
    return 'Add a second step to signing in: a code from an authenticator app or your email, after your password.';
  return `Signing in takes your password and ${steps.join(' or ')}.`;
}
