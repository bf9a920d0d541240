import { authEndpoints } from '@customer-core/contracts';

// Forgot password and sign-in by link answer a known and an unknown address alike, in time too (no
// enumeration): both take the same steps, an unknown address's rolled back. Measured here, not
// asserted in the suite: a time depends on whatever else the machine is doing.
// The two addresses must differ in nothing else. Each is the same in every round, and the bench's
// server lets one address ask that often (EMAIL_LINK_FLOOD_LIMIT_PER_ADDRESS in server.ts): a limited
// address is answered before any of the steps. And each takes the first turn of every other round,
// so the known address's e-mail, delivered once it has been answered, delays the two alike.

const CALLS = [
  ['password-reset', authEndpoints.passwordReset.path],
  ['send-magic-link-email', authEndpoints.sendMagicLinkEmail.path],
] as const;
const WARM_UP = 5;
const ROUNDS = 40;
/** The target: the two lower quartiles within 4 ms or 40 % of the faster one. */
const toleranceMs = (faster: number) => Math.max(4, 0.4 * faster);

// The lower quartile: what a request costs when nothing else is in its way.
const lowerQuartile = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 4)]!;

async function timed(url: string, email: string, client: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    // TRUST_PROXY is on: each request comes from an address of its own, under the per-client limit.
    headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
    body: JSON.stringify({ email }),
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return performance.now() - started;
}

/** One note line: each call's lower quartiles, known and unknown address interleaved, and the verdict. */
export async function emailLinkTimingNote(publicUrl: string, knownEmail: string): Promise<string> {
  let clients = 0;
  const client = () => `198.51.${Math.floor(++clients / 250)}.${clients % 250}`;
  const parts: string[] = [];
  for (const [name, path] of CALLS) {
    const known: number[] = [];
    const unknown: number[] = [];
    const unknownEmail = `nobody.${Date.now()}@example.com`;
    const ask = (email: string) => timed(`${publicUrl}${path}`, email, client());
    for (let round = 0; round < WARM_UP + ROUNDS; round++) {
      const knownFirst = round % 2 === 0;
      const first = await ask(knownFirst ? knownEmail : unknownEmail);
      const second = await ask(knownFirst ? unknownEmail : knownEmail);
      if (round < WARM_UP) continue;
      known.push(knownFirst ? first : second);
      unknown.push(knownFirst ? second : first);
    }
    const [a, b] = [lowerQuartile(known), lowerQuartile(unknown)];
    const met = Math.abs(a - b) < toleranceMs(Math.min(a, b));
    parts.push(`${name} known ${a.toFixed(2)} ms, unknown ${b.toFixed(2)} ms (${met ? 'met' : 'MISSED'})`);
  }
  return (
    `E-mailed links, known vs unknown address, lower quartile of ${ROUNDS} each (target: within 4 ms ` +
    `or 40 %): ${parts.join('; ')}.`
  );
}
