import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { authEndpoints } from '@customer-core/contracts';
import { emailLinkTimingNote } from './email-link-timing.js';
import { measureEndpoint, type LoadResult } from './http-load.js';
import { measurePeer, type PeerResults } from './peer/peer-phases.js';
import { peerRows, printPeerTable } from './peer/peer-report.js';
import { sampleProcess, type PhaseUsage } from './process-sampler.js';
import { localPostgresPid } from './postgres-process.js';
import { argon2, bareHttp, es256 } from './reference.js';
import { flowRow, httpRow, ms, printTable, rssRow, type Row, type Target } from './report.js';
import { startBenchServer, stopAllServers, type BenchServer } from './server.js';
import {
  DEMO_BORROWER,
  authnAlone,
  measureSignIns,
  signIn,
  type FlowResult,
  type ServerAddress,
} from './sign-in-flow.js';
import { chromiumPath } from './chromium.js';
import { bytesOf, headerBytesOf, measureSignInPage, scripts, type Fetched } from './sign-in-page.js';
import { measureDuringSignInFlood } from './sign-in-flood.js';
import { measureObservabilityCost } from './observability-cost.js';
import { measureSignInSteps, signInStepsNote } from './sign-in-steps.js';
import { loginToDashboardNote, measureLoginToDashboard } from './login-to-dashboard.js';

// npm run bench [-- --quick] [-- --connections=N --workers=N --only=validate --cpu-prof]
// Starts the built server in a child process, loads it from this process and prints each figure next
// to its target (shared/design/performance-targets.md). Exits 1 when a phase had more than a trickle
// of failed requests (its figures would mean nothing) or the server died; a missed target is not an error.

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    // See README.md for how these were chosen.
    connections: { type: 'string', default: '64' },
    workers: { type: 'string', default: '24' },
    // Sign-ins at once in the flood phase (each from its own address).
    flood: { type: 'string', default: '300' },
    // One phase only (a part of its name), e.g. to profile it alone with --cpu-prof.
    only: { type: 'string', default: '' },
    'cpu-prof': { type: 'boolean', default: false },
  },
});
const seconds = args.quick ? 3 : 10;
const warmUpSeconds = args.quick ? 1 : 2;
const load = { connections: Number(args.connections), seconds, warmUpSeconds };
const workers = Number(args.workers);
const selected = (phase: string) => phase.includes(args.only);
// The phases on the one server of a run; 'observability' starts servers of its own.
const MAIN_PHASES = [
  'sign-in page',
  'LOGIN to dashboard',
  'email links',
  'GET public-keys',
  'POST validate',
  'POST token-refresh',
  'sign-in flow',
  'sign-in flood',
];
const mainRun = MAIN_PHASES.some(selected);
// The peer (better-auth, bench/peer/) needs PostgreSQL, and is compared with a whole run of ours.
const postgresUrl = process.env.BENCH_DATABASE_URL || undefined;
const withPeer = postgresUrl !== undefined && args.only === '';
const cpuProfileDir = args['cpu-prof'] ? path.resolve(import.meta.dirname, 'results') : undefined;
if (cpuProfileDir) mkdirSync(cpuProfileDir, { recursive: true });

const TARGETS = {
  'GET public-keys': { perSecond: 20_000 },
  'POST validate': { perSecond: 10_000, latency: { percentile: 'p99', below: 20 } },
  'POST token-refresh': { perSecond: 2_000, latency: { percentile: 'p99', below: 50 } },
  'sign-in flow': { perSecond: 80, latency: { percentile: 'p95', below: 300 } },
  // During a flood of sign-ins only responsiveness counts: few connections, the latency they see.
  'GET healthz, sign-in flood': { perSecond: 0, latency: { percentile: 'p99', below: 100 } },
  'POST validate, sign-in flood': { perSecond: 0, latency: { percentile: 'p99', below: 100 } },
} satisfies Record<string, Target>;
const RSS_LIMIT = 200e6;
// The sign-in route's JavaScript, gzipped as served, as Chromium receives it (performance targets).
const PAGE_TARGETS = { formWorks: 110 * 1024, signInSent: 150 * 1024 };

// Tokens validated and refreshed in turn: each is verified once, then recognised, as a borrower's
// token is on every call after its first (fewer than an instance remembers).
const TOKENS_IN_TURN = 200;

const cpus = os.cpus();
console.log(
  `Machine: ${cpus.length} CPU (${cpus[0]?.model.trim() ?? 'unknown'}), Node ${process.version}, ` +
    `load average before the run ${os.loadavg()[0]!.toFixed(2)}`,
);
console.log(
  `Phases: ${warmUpSeconds} s warm-up + ${seconds} s measured each; autocannon ${load.connections} ` +
    `connections; ${workers} concurrent sign-ins`,
);

let server: BenchServer | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the server`);
    void stopAllServers().finally(() => process.exit(130));
  });
}

// References first, with nothing else of ours running.
console.error('measuring references: ES256, argon2id ...');
const crypto = es256(args.quick ? 0.5 : 1);
const passwords = await argon2(args.quick ? 1 : 2);
// What each endpoint cannot avoid doing, as a rate: the server can at best come near it.
const references: Record<string, { label: string; rate: number }> = {
  // A token's first validation costs an ES256 verify; later ones are recognised (so see bare node:http too).
  'POST validate': { label: 'ES256 verify on 1 core', rate: crypto.verifyPerSecond },
  // Every refresh signs a new token; the presented one is usually recognised, not verified again.
  'POST token-refresh': { label: 'ES256 sign on 1 core', rate: crypto.signPerSecond },
  'sign-in flow': {
    label: `argon2id verify on 4 threads, ${ms(passwords.msPerVerify)} each alone`,
    rate: passwords.perSecond,
  },
};

const rows: Row[] = [];
const notes: string[] = [];
let usage = new Map<string, PhaseUsage>();
let validate: LoadResult | undefined;
let authn: FlowResult | undefined;
let flows: FlowResult | undefined;
// PostgreSQL's own CPU is counted apart from the rest of the machine's when it runs here.
const postgresPid = await localPostgresPid(postgresUrl);
if (mainRun)
  try {
    server = await startBenchServer({ postgresUrl, cpuProfileDir });
    console.log(`Database: ${server.database}`);
    console.log(`Server: pid ${server.pid} at ${server.url} (PUBLIC_URL ${server.publicUrl})\n`);
    if (selected('sign-in page')) notes.push(await signInPageNote(server.publicUrl));
    if (selected('LOGIN to dashboard')) notes.push(await loginToDashboardPhase(server.publicUrl));
    if (selected('email links'))
      notes.push(await emailLinkTimingNote(server.publicUrl, DEMO_BORROWER.username));
    const sampler = sampleProcess(server.pid, postgresPid);
    const mark = (phase: string) => (step: 'warm-up' | 'measure') =>
      sampler.phase(step === 'measure' ? phase : `${phase} (warm-up)`);
    // Many sessions' tokens in turn, not one: each instance remembers the tokens it has verified. Refresh
    // spends its token, so each refreshing connection keeps a session of its own (twice: warm-up, measure).
    // A phase of its own: 'start-up' is the server as it started, before any sign-in.
    sampler.phase('signing in the sessions measured');
    const tokens = await signedInTokens(server, TOKENS_IN_TURN);
    const refreshChains = {
      warmUp: await signedInTokens(server, load.connections),
      measure: await signedInTokens(server, load.connections),
    };

    // Bare node:http serving the same JWKS under the same load: what this machine allows right now.
    console.error('measuring reference: bare node:http ...');
    sampler.phase('reference');
    const jwks = await (await fetch(`${server.url}${authEndpoints.publicKeys.path}`)).text();
    const bare = await bareHttp(jwks, load);
    references['GET public-keys'] = { label: 'bare node:http', rate: bare.medianPerSecond };

    const endpoints = [
      {
        phase: 'GET public-keys',
        path: authEndpoints.publicKeys.path,
        bodies: undefined,
        refreshChains: undefined,
      },
      {
        phase: 'POST validate',
        path: authEndpoints.validate.path,
        bodies: tokens.map((t) => ({ access_token: t })),
        refreshChains: undefined,
      },
      {
        phase: 'POST token-refresh',
        path: authEndpoints.tokenRefresh.path,
        bodies: undefined,
        refreshChains,
      },
    ] as const;
    const results = [];
    for (const { phase, path: urlPath, bodies, refreshChains } of endpoints.filter((e) =>
      selected(e.phase),
    )) {
      console.error(`measuring ${phase} ...`);
      const method = bodies || refreshChains ? 'POST' : 'GET';
      const spec = { url: `${server.url}${urlPath}`, method, bodies, refreshChains } as const;
      results.push({ phase, result: await measureEndpoint({ ...spec, ...load }, mark(phase)) });
      assertAlive(server);
    }
    if (selected('sign-in flow')) {
      if (server.metricsUrl) {
        console.error('counting statements and CPU per sign-in step ...');
        sampler.phase('sign-in steps, one at a time');
        notes.push(
          signInStepsNote(await measureSignInSteps(server, server.metricsUrl, args.quick ? 15 : 40)),
        );
      } else
        notes.push('Statements and CPU per sign-in step: not counted with SERVER_PROCESSES (no metrics).');
      console.error('measuring sign-in flow ...');
      const address = server;
      flows = await measureSignIns(
        (steps) => signIn(address, steps),
        { workers, seconds, warmUpSeconds },
        mark('sign-in flow'),
      );
      assertAlive(server);
    }
    if (withPeer) {
      // The peer's sign-in is one call, a password check: our equivalent is the flow's first step.
      console.error('measuring POST authn alone (compared with the peer) ...');
      const url = server.url;
      authn = await measureSignIns(
        () => authnAlone(url),
        { workers, seconds, warmUpSeconds },
        mark('authn alone'),
      );
      assertAlive(server);
    }
    let flood;
    if (selected('sign-in flood')) {
      console.error(`measuring /healthz and validate during a flood of ${args.flood} sign-ins at once ...`);
      flood = await measureDuringSignInFlood(
        server.url,
        tokens.map((t) => ({ access_token: t })),
        { concurrency: Number(args.flood), seconds, warmUpSeconds, connections: 4 },
        mark('sign-in flood'),
      );
      assertAlive(server);
    }
    sampler.stop();
    usage = sampler.usage();

    validate = results.find((r) => r.phase === 'POST validate')?.result;
    for (const { phase, result } of results) {
      rows.push(httpRow(phase, result, TARGETS[phase], usage.get(phase), references[phase]));
    }
    if (results.length > 0) notes.push(cpuPerRequest(results, usage));
    if (flows) {
      const phase = 'sign-in flow';
      rows.push(flowRow(phase, flows, TARGETS[phase], usage.get(phase), references[phase]));
      const steps = [...flows.stepMedians].map(([step, t]) => `${step} ${ms(t)}`).join(', ');
      notes.push(`Sign-in steps, median time to the whole answer: ${steps}.`);
      const used = usage.get(phase);
      if (used) notes.push(cpuPerSignIn(used, flows.meanPerSecond, passwords.msPerVerify));
    }
    if (flood) {
      const used = usage.get('sign-in flood');
      for (const [phase, result] of [
        ['GET healthz, sign-in flood', flood.healthz],
        ['POST validate, sign-in flood', flood.validate],
      ] as const) {
        rows.push(httpRow(phase, result, TARGETS[phase], used));
      }
      const answered = Object.entries(flood.signIns)
        .map(([status, n]) => `${status}: ${n}`)
        .join(', ');
      notes.push(
        `Sign-in flood: ${args.flood} sign-ins at once, each from its own address, for ${warmUpSeconds} + ` +
          `${seconds} s; they were answered ${answered} (503: refused at once, the line of password checks full).`,
      );
    }
  } finally {
    await server?.stop();
  }

let peer: PeerResults | undefined;
let peerFailed = false;
if (withPeer) {
  // After ours has stopped: the two servers never share the machine while either is measured.
  try {
    peer = await measurePeer({
      adminUrl: postgresUrl,
      load,
      workers,
      sessions: TOKENS_IN_TURN,
      verifySeconds: args.quick ? 0.5 : 1,
      postgresPid,
    });
  } catch (error) {
    peerFailed = true;
    console.error('The peer could not be measured:', error);
  }
}

if (server) {
  rows.push(rssRow(usage, RSS_LIMIT));
  notes.push(
    'cpu: average cores busy in the measured window: server + load generator (this process) / whole ' +
      "machine (the rest is PostgreSQL, the flood's attacker process and whatever else runs). " +
      `1 MB = 10^6 bytes. Database: ${server.database}.`,
  );
}
if (selected('observability')) {
  // Five: on a noisy machine one server's three rounds of validate ranged 7,623 to 13,123/s.
  const observability = { postgresUrl, load, workers, tokens: TOKENS_IN_TURN, rounds: 5 };
  notes.push(await measureObservabilityCost(observability));
}
console.log('');
if (rows.length > 0) printTable(rows);
console.log(notes.join('\n'));
const logged = (server?.output() ?? []).filter((line) => line.startsWith('{'));
if (logged.length > 0) console.log(`\nThe server's last warnings/errors:\n${logged.slice(-5).join('\n')}`);
const peerTable = peer ? peerRows(peer, { flows, authn, validate, peakRss: peakOf(usage) }) : [];
if (peer) {
  console.log(
    '\nThe peer, better-auth (bench/peer/, README "The peer"), measured after ours in the same run:\n',
  );
  printPeerTable(peerTable);
  const [ours, theirs] = [usage.get('sign-in flow'), peer.usage.get('sign-in')];
  if (flows && ours && theirs) {
    console.log(cpuPerSignInBeside(ours, flows.meanPerSecond, theirs, peer.signIns.meanPerSecond));
  }
  console.log(`Peer database: ${peer.database}; its server's peak RSS is over both of its configurations.`);
} else if (!postgresUrl) {
  console.log('\nThe peer (better-auth) is measured on PostgreSQL only: set BENCH_DATABASE_URL.');
} else if (!withPeer) {
  console.log('\nThe peer (better-auth) is measured in whole runs only (not with --only).');
}
if (peerFailed || peerTable.some((row) => row.verdict === 'INVALID')) {
  console.error('\nThe peer could not be measured, or a phase of it had more than a trickle of failures.');
  process.exitCode = 1;
}
if (rows.some((row) => row.verdict === 'INVALID')) {
  console.error('\nA phase had more than a trickle (0.1 %) of failed requests: its figures are not valid.');
  process.exit(1);
}

function peakOf(phases: Map<string, PhaseUsage>): number {
  return Math.max(...[...phases.values()].map((u) => u.peakRss));
}

/**
 * A sign-in's CPU time in ms, from a phase's average busy cores and its sign-ins per second; PostgreSQL's
 * part of the rest when it runs on this machine (else NaN, and the rest holds it).
 */
function signInCost(used: PhaseUsage, perSecond: number) {
  const msEach = (cores: number) => (cores * 1000) / perSecond;
  const server = msEach(used.serverCores);
  const eventLoop = msEach(used.serverMainThreadCores);
  const generator = msEach(used.benchCores);
  const database = msEach(used.databaseCores);
  const databaseCounted = Number.isNaN(used.databaseCores) ? 0 : used.databaseCores;
  const rest = msEach(Math.max(0, used.machineCores - used.serverCores - used.benchCores - databaseCounted));
  return {
    server,
    eventLoop,
    generator,
    database,
    rest,
    total: server + generator + rest + msEach(databaseCounted),
  };
}

/** PostgreSQL's part and the rest's, or both together when PostgreSQL was not counted apart. */
function databaseAndRest({ database, rest }: ReturnType<typeof signInCost>) {
  return Number.isNaN(database)
    ? `PostgreSQL and the rest of the machine ${ms(rest)}`
    : `PostgreSQL ${ms(database)}, the rest of the machine ${ms(rest)}`;
}

/** Where a sign-in's CPU time goes: what the whole machine can then do is its core count divided by the sum. */
function cpuPerSignIn(used: PhaseUsage, perSecond: number, argon2Ms: number): string {
  const cost = signInCost(used, perSecond);
  const ceiling = (cpus.length * 1000) / cost.total;
  return (
    `CPU per sign-in: server ${ms(cost.server)} (event loop ${ms(cost.eventLoop)}, other threads ` +
    `${ms(cost.server - cost.eventLoop)}: argon2id, ${ms(argon2Ms)} per verify alone, and V8's helpers), ` +
    `load generator ${ms(cost.generator)}, ${databaseAndRest(cost)}: at that cost ${cpus.length} cores allow at most ` +
    `${ceiling.toFixed(0)} sign-ins/s (measured: ${perSecond.toFixed(0)}/s).`
  );
}

/**
 * Ours and the peer's sign-in by CPU. Where the server, PostgreSQL and the load generator share the
 * cores, the rate follows the sum, which counts what our four requests cost the other two.
 */
function cpuPerSignInBeside(
  ours: PhaseUsage,
  oursPerSecond: number,
  peer: PhaseUsage,
  peerPerSecond: number,
) {
  const a = signInCost(ours, oursPerSecond);
  const b = signInCost(peer, peerPerSecond);
  const line = (c: typeof a) =>
    `server ${ms(c.server)}, load generator ${ms(c.generator)}, ${databaseAndRest(c)}, in all ${ms(c.total)}`;
  return (
    `CPU per sign-in, ours (4 requests): ${line(a)}; the peer's (1 request): ${line(b)}. ` +
    `Ours/peer: server alone ${(a.server / b.server).toFixed(2)}x, in all ${(a.total / b.total).toFixed(2)}x.`
  );
}

/**
 * The server's CPU time per answered request: unlike a rate, it holds when other work shares the
 * machine (the server then waits longer, but spends about as much on each request).
 */
function cpuPerRequest(
  results: { phase: string; result: LoadResult }[],
  phases: Map<string, PhaseUsage>,
): string {
  const each = results.map(({ phase, result }) => {
    const cores = phases.get(phase)?.serverCores ?? Number.NaN;
    return `${phase} ${((cores / result.meanPerSecond) * 1e6).toFixed(0)} µs`;
  });
  return `Server CPU per request (all its processes): ${each.join(', ')}.`;
}

/** The sign-in route in Chromium, in each language: its JavaScript by moment, and what arrived before the borrower acted. */
async function signInPageNote(publicUrl: string): Promise<string> {
  const executablePath = chromiumPath();
  if (!executablePath) return 'Sign-in route in Chromium: not measured (no Chromium: set CHROMIUM_PATH).';
  const notes: string[] = [];
  for (const [language, locale] of [
    ['English', 'en-US'],
    ['Spanish', 'es-US'],
  ] as const) {
    console.error(`measuring the sign-in route in Chromium, in ${language} ...`);
    const { formWorks, idle, signInSent } = await measureSignInPage(publicUrl, executablePath, locale);
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
    const against = (fetched: Fetched[], target: number) => {
      const bytes = bytesOf(scripts(fetched));
      const verdict = bytes <= target ? 'meets' : 'misses';
      const encodings = [...new Set(scripts(fetched).map((f) => f.encoding))].join('/');
      return `${kb(bytes)} in ${scripts(fetched).length} files, ${encodings} (target <= ${kb(target)}: ${verdict}; their headers ${kb(headerBytesOf(scripts(fetched)))} more)`;
    };
    const name = (f: Fetched) => `${new URL(f.url).pathname} ${f.type} ${kb(f.bytes)}`;
    const early = idle.slice(formWorks.length);
    notes.push(
      `Sign-in route in Chromium, in ${language} (a browser set to ${locale}; first visit, nothing cached; bodies ` +
        `as they came over the wire, compressed as served): JavaScript until the form works ` +
        `${against(formWorks, PAGE_TARGETS.formWorks)}, until a sign-in is sent ${against(signInSent, PAGE_TARGETS.signInSent)}.`,
      `  Until the form works (${formWorks.length}, ${kb(bytesOf(formWorks))} in all): ${formWorks.map(name).join(', ')}.`,
      early.length === 0
        ? '  Fetched after that, before the borrower acted: nothing.'
        : `  Fetched after that, before the borrower acted (${kb(bytesOf(early))}): ${early.map(name).join(', ')}.`,
      `  Once LOGIN was pressed, before the password left: ${
        signInSent.slice(idle.length).map(name).join(', ') || 'nothing'
      }.`,
    );
  }
  return notes.join('\n');
}

/** LOGIN to the dashboard with loans, in Chromium, before any load: what a borrower feels of a sign-in. */
async function loginToDashboardPhase(publicUrl: string): Promise<string> {
  const executablePath = chromiumPath();
  if (!executablePath)
    return 'LOGIN to the dashboard in Chromium: not measured (no Chromium: set CHROMIUM_PATH).';
  const runs = args.quick ? 7 : 11;
  console.error(`measuring LOGIN to the dashboard with loans in Chromium, ${runs} runs ...`);
  return loginToDashboardNote(await measureLoginToDashboard(publicUrl, executablePath, runs));
}

/** Access tokens of `count` sign-ins (sessions), a few at a time. */
async function signedInTokens(server: ServerAddress, count: number): Promise<string[]> {
  const tokens: string[] = [];
  while (tokens.length < count) {
    const batch = Math.min(workers, count - tokens.length);
    tokens.push(...(await Promise.all(Array.from({ length: batch }, () => signIn(server)))));
  }
  return tokens;
}

function assertAlive(s: BenchServer): void {
  const exited = s.exited();
  if (exited) throw new Error(`the server stopped under load (${exited}):\n${s.output().join('\n')}`);
}
