import { readdirSync, readFileSync } from 'node:fs';
import { parsePrometheusText, sampleValue } from '@customer-core/api/testing';
import { signIn, type ServerAddress } from './sign-in-flow.js';
import { median } from './stats.js';

// What each step of a sign-in costs the server, with nothing else running: sign-ins one at a time,
// the server's counters read before and after every step. Statements are counted by the server where
// SQL leaves for the database (portal_db_statements_total from its metrics: every round trip, BEGIN
// and COMMIT included); a read of the metrics sends some of its own, measured alone (two reads in a
// row) and taken off. CPU is read from Linux, not from the metrics: the time each of the server's
// threads has run (argon2id's included), in nanoseconds, which a step of a millisecond needs and
// which costs the server nothing to read. A read of the metrics costs it a few milliseconds of CPU, as
// much as a step, and varied too much to be taken off.

// Steps 1 to 4 of the portal's sign-in, which the flow under load makes; then step 5's redirect (the
// authorize again and the callback's token), which every browser sign-in makes too.
const FLOW_STEPS = ['authn', 'authorize', 'token', 'exchange'];
const REDIRECT_STEPS = ['redirect', 'callback'];

interface Counters {
  statements: number;
  cpuMs: number;
}

async function statementsSent(metricsUrl: string): Promise<number> {
  const samples = parsePrometheusText(await (await fetch(metricsUrl)).text());
  const statements = sampleValue(samples, 'portal_db_statements_total');
  if (statements === undefined) throw new Error('the server does not count statements');
  return statements;
}

/** CPU time of every thread of the process so far (/proc/<pid>/task/<tid>/schedstat: ns on a CPU). */
function threadsCpuMs(pid: number): number {
  let ns = 0;
  for (const thread of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // a thread that ended since the listing
    }
  }
  return ns / 1e6;
}

export interface StepCosts {
  rounds: number;
  /** Median per step. */
  statements: Map<string, number>;
  cpuMs: Map<string, number>;
}

export async function measureSignInSteps(
  server: ServerAddress & { pid: number },
  metricsUrl: string,
  rounds: number,
): Promise<StepCosts> {
  // What a read of the metrics sends between two reads, with nothing else in between.
  const idle: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const before = await statementsSent(metricsUrl);
    idle.push((await statementsSent(metricsUrl)) - before);
  }
  const readCost = median(idle);
  const perStep = new Map<string, Counters[]>([...FLOW_STEPS, ...REDIRECT_STEPS].map((step) => [step, []]));
  await signIn(server); // the first sign-in of the run (an instance reads what it then keeps)
  for (let i = 0; i < rounds; i++) {
    await signIn(
      server,
      undefined,
      async (step, call) => {
        const statements = await statementsSent(metricsUrl);
        const cpuMs = threadsCpuMs(server.pid);
        const answer = await call();
        const cpuAfter = threadsCpuMs(server.pid);
        perStep.get(step)?.push({
          statements: (await statementsSent(metricsUrl)) - statements - readCost,
          cpuMs: cpuAfter - cpuMs,
        });
        return answer;
      },
      { redirect: true },
    );
  }
  return {
    rounds,
    statements: new Map([...perStep].map(([step, c]) => [step, median(c.map((x) => x.statements))])),
    cpuMs: new Map([...perStep].map(([step, c]) => [step, median(c.map((x) => x.cpuMs))])),
  };
}

/** The bench's line: statements and server CPU per step, and their sums: the flow's, then with step 5. */
export function signInStepsNote(costs: StepCosts): string {
  const describe = (m: Map<string, number>, format: (n: number) => string) => {
    const part = (steps: string[]) => ({
      list: steps.map((step) => `${step} ${format(m.get(step)!)}`).join(', '),
      sum: steps.reduce((total, step) => total + m.get(step)!, 0),
    });
    const flow = part(FLOW_STEPS);
    const redirect = part(REDIRECT_STEPS);
    return (
      `${flow.list} (${format(flow.sum)} in steps 1 to 4), then step 5's ${redirect.list} ` +
      `(${format(flow.sum + redirect.sum)} in all)`
    );
  };
  return (
    `Per sign-in, one at a time (median of ${costs.rounds}): statements sent to the database ` +
    `${describe(costs.statements, String)}; server CPU ${describe(costs.cpuMs, (n) => `${n.toFixed(1)} ms`)}.`
  );
}
