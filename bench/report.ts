import type { LoadResult } from './http-load.js';
import type { PhaseUsage } from './process-sampler.js';
import type { FlowResult } from './sign-in-flow.js';

// The printed table: each figure next to its target (shared/design/performance-targets.md) and next
// to a reference measured in the same run on the same machine.

export type Verdict = 'meets' | 'misses' | 'INVALID';

export interface Row {
  measure: string;
  result: string;
  target: string;
  verdict: Verdict;
  /** Non-2xx answers and errors, e.g. "0" or "12 (429: 12)". */
  failures: string;
  peakRss: string;
  /** Cores busy while measuring: "server + load generator / whole machine". */
  cpu: string;
  reference: string;
}

export interface Target {
  perSecond: number;
  /** The latency bound and the percentile it applies to. */
  latency?: { percentile: 'p99' | 'p95'; below: number };
}

export interface Reference {
  label: string;
  rate: number;
}

export const perSecond = (n: number) => `${Math.round(n).toLocaleString('en-US')}/s`;
export const ms = (n: number) => `${n < 10 ? n.toFixed(1) : Math.round(n)} ms`;
export const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

export function httpRow(
  measure: string,
  r: LoadResult,
  target: Target,
  usage?: PhaseUsage,
  reference?: Reference,
): Row {
  const refused = Object.fromEntries(
    Object.entries(r.statuses).filter(([status]) => !status.startsWith('2')),
  );
  return {
    ...common(usage, reference, r.medianPerSecond),
    measure,
    result: `${perSecond(r.medianPerSecond)} (mean ${perSecond(r.meanPerSecond)}), p50 ${ms(r.p50)}, p99 ${ms(r.p99)}`,
    target: describeTarget(target),
    verdict:
      failureVerdict(r.non2xx + r.errors, r.total) ?? verdict(target, r.medianPerSecond, { p99: r.p99 }),
    failures: describeFailures(r.non2xx, refused, r.errors),
  };
}

export function flowRow(
  measure: string,
  f: FlowResult,
  target: Target,
  usage?: PhaseUsage,
  reference?: Reference,
): Row {
  return {
    ...common(usage, reference, f.medianPerSecond),
    measure,
    result: `${perSecond(f.medianPerSecond)} (mean ${perSecond(f.meanPerSecond)}), p50 ${ms(f.p50)}, p95 ${ms(f.p95)}`,
    target: describeTarget(target),
    verdict:
      failureVerdict(f.failures, f.completed + f.failures) ??
      verdict(target, f.medianPerSecond, { p95: f.p95 }),
    failures: describeFailures(f.failures, Object.fromEntries(f.failureReasons)),
  };
}

export function rssRow(usage: Map<string, PhaseUsage>, limitBytes: number): Row {
  const peak = Math.max(...[...usage.values()].map((u) => u.peakRss));
  return {
    ...common(),
    measure: 'server RSS, peak over the run',
    result: `${mb(peak)} (after start-up ${mb(usage.get('start-up')?.peakRss ?? Number.NaN)})`,
    target: `<= ${mb(limitBytes)}`,
    verdict: peak <= limitBytes ? 'meets' : 'misses',
    peakRss: mb(peak),
  };
}

export function printTable(rows: readonly Row[]): void {
  const header: Row = {
    measure: 'measure',
    result: 'result (median of 1-s samples)',
    target: 'target',
    verdict: 'verdict' as Verdict,
    failures: 'non-2xx/errors',
    peakRss: 'peak RSS',
    cpu: 'cpu',
    reference: 'reference (same run)',
  };
  printColumns(header, rows);
}

/** A Markdown table: `header` names the columns (its keys) and heads them (its values). */
export function printColumns<R extends { [K in keyof R]: string }>(header: R, rows: readonly R[]): void {
  const columns = Object.keys(header) as (keyof R)[];
  const widths = columns.map((c) => Math.max(...[header, ...rows].map((r) => r[c].length)));
  const line = (r: R) => `| ${columns.map((c, i) => r[c].padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
}

function common(
  usage?: PhaseUsage,
  reference?: Reference,
  rate = 0,
): Omit<Row, 'measure' | 'result' | 'target' | 'verdict'> {
  return {
    failures: '',
    peakRss: usage ? mb(usage.peakRss) : '',
    cpu: usage
      ? `${usage.serverCores.toFixed(2)} + ${usage.benchCores.toFixed(2)} / ${usage.machineCores.toFixed(2)}`
      : '',
    // The ratio is what compares across runs on a shared machine.
    reference: reference
      ? `${(rate / reference.rate).toFixed(2)}x of ${reference.label} (${perSecond(reference.rate)})`
      : '',
  };
}

function describeTarget({ perSecond: rate, latency }: Target): string {
  const parts = [
    rate > 0 ? `>= ${perSecond(rate)}` : '',
    latency ? `${latency.percentile} < ${latency.below} ms` : '',
  ];
  return parts.filter(Boolean).join(', ');
}

function verdict(target: Target, rate: number, latencies: { p99?: number; p95?: number }): Verdict {
  const latency = target.latency ? latencies[target.latency.percentile] : undefined;
  const fastEnough = !target.latency || (latency !== undefined && latency < target.latency.below);
  return rate >= target.perSecond && fastEnough ? 'meets' : 'misses';
}

/** A trickle of failures (<= 0.1 % of requests) is reported; more makes the figure meaningless. */
function failureVerdict(failures: number, total: number): Verdict | undefined {
  return failures > total * 0.001 ? 'INVALID' : undefined;
}

function describeFailures(count: number, reasons: Record<string, number>, errors = 0): string {
  const parts = Object.entries(reasons).map(([reason, n]) => `${reason}: ${n}`);
  if (errors > 0) parts.push(`connection errors: ${errors}`);
  return parts.length === 0 ? '0' : `${count + errors} (${parts.join('; ')})`;
}
