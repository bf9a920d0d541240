import { parsePrometheusText, sampleValue } from '@customer-core/api/testing';
import { signIn, type ServerAddress } from './sign-in-flow.js';
import { median } from './stats.js';

// What each step of a sign-in costs the server, with nothing else running: sign-ins one at a time,
// the server's own counters read from its metrics before and after every step. Statements are counted
// by the server where SQL leaves for the database (portal_db_statements_total: every round trip,
// BEGIN and COMMIT included); CPU is the server process's, all threads (process_cpu_seconds_total,
// from getrusage: argon2id's threads count). A read of the metrics costs a little of both, measured
// alone (two reads in a row) and taken off.

const STEPS = ['authn', 'authorize', 'token', 'exchange'] as const;

interface Counters {
  statements: number;
  cpuMs: number;
}

async function read(metricsUrl: string): Promise<Counters> {
  const samples = parsePrometheusText(await (await fetch(metricsUrl)).text());
  const statements = sampleValue(samples, 'portal_db_statements_total');
  const cpu = sampleValue(samples, 'process_cpu_seconds_total');
  if (statements === undefined || cpu === undefined) throw new Error('the server does not count statements');
  return { statements, cpuMs: cpu * 1000 };
}

export interface StepCosts {
  rounds: number;
  /** Median per step. */
  statements: Map<string, number>;
  cpuMs: Map<string, number>;
}

export async function measureSignInSteps(
  server: ServerAddress,
  metricsUrl: string,
  rounds: number,
): Promise<StepCosts> {
  // What a read of the metrics costs between two reads, with nothing else in between.
  const idle: Counters[] = [];
  for (let i = 0; i < rounds; i++) {
    const before = await read(metricsUrl);
    const after = await read(metricsUrl);
    idle.push({ statements: after.statements - before.statements, cpuMs: after.cpuMs - before.cpuMs });
  }
  const readCost = {
    statements: median(idle.map((c) => c.statements)),
    cpuMs: median(idle.map((c) => c.cpuMs)),
  };
  const perStep = new Map<string, Counters[]>(STEPS.map((step) => [step, []]));
  await signIn(server); // the first sign-in of the run (an instance reads what it then keeps)
  for (let i = 0; i < rounds; i++) {
    await signIn(server, undefined, async (step, call) => {
      const before = await read(metricsUrl);
      const answer = await call();
      const after = await read(metricsUrl);
      perStep.get(step)?.push({
        statements: after.statements - before.statements - readCost.statements,
        cpuMs: after.cpuMs - before.cpuMs - readCost.cpuMs,
      });
      return answer;
    });
  }
  return {
    rounds,
    statements: new Map([...perStep].map(([step, c]) => [step, median(c.map((x) => x.statements))])),
    cpuMs: new Map([...perStep].map(([step, c]) => [step, median(c.map((x) => x.cpuMs))])),
  };
}

/** The bench's line: statements and server CPU per step, and their sums. */
export function signInStepsNote(costs: StepCosts): string {
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const list = (m: Map<string, number>, format: (n: number) => string) =>
    [...m].map(([step, n]) => `${step} ${format(n)}`).join(', ');
  return (
    `Per sign-in, one at a time (median of ${costs.rounds}): statements sent to the database ` +
    `${list(costs.statements, String)} (${sum(costs.statements)} in all); server CPU ` +
    `${list(costs.cpuMs, (n) => `${n.toFixed(1)} ms`)} (${sum(costs.cpuMs).toFixed(1)} ms in all).`
  );
}
