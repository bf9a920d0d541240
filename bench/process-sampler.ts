import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

// The server's resident memory, read from /proc (Linux) every 100 ms: a peak between samples can be
// missed, but a heap that grows under load shows. The server is its process and every process under it
// (SERVER_PROCESSES > 1 runs one per core, forked by the first): their RSS is added up, which counts
// the pages they share (Node's own code, ~40 MB) once per process, so it is an upper bound. Also the CPU used per phase, in cores: by the
// server, by this process (the load generator) and by the whole machine. Machine busy near its core
// count while server + load generator is well below means something else (PostgreSQL, or other work
// on a shared machine) took the rest. With the PostgreSQL server's process id (when it runs on this
// machine), its CPU is counted apart: every process of it, and the backends it has reaped since.

export interface PhaseUsage {
  peakRss: number;
  /** Average cores busy during the phase: the server process, and this (load generator) process. */
  serverCores: number;
  /** The part of serverCores on the server processes' main threads (their event loops). */
  serverMainThreadCores: number;
  benchCores: number;
  machineCores: number;
  /** Average cores busy in the PostgreSQL server (NaN when it is not on this machine). */
  databaseCores: number;
}

export interface ProcessSampler {
  /** Starts a new phase; what follows is kept under this name. */
  phase(name: string): void;
  /** Per phase, in the order the phases ran ("start-up" first). */
  usage(): Map<string, PhaseUsage>;
  stop(): void;
}

// Linux reports CPU time in /proc/<pid>/stat in clock ticks: 100 per second on every usual kernel.
const TICKS_PER_SECOND = 100;

export function sampleProcess(pid: number, postgresPid?: number, intervalMs = 100): ProcessSampler {
  const usage = new Map<string, PhaseUsage>();
  let current = 'start-up';
  // The processes are listed again at every sample: the cluster forks its workers after start-up.
  let tree = processTree(pid);
  const now = () => {
    const processes = processTree(pid);
    return {
      wall: performance.now(),
      server: serverCpuSeconds(processes),
      serverMainThreads: mainThreadsCpuSeconds(processes),
      bench: process.cpuUsage(),
      machine: machineBusySeconds(),
      database: postgresPid === undefined ? Number.NaN : postgresCpuSeconds(postgresPid),
    };
  };
  let since = now();
  const sample = () => {
    tree = processTree(pid);
    const rss = sumOf(tree, readRss);
    const entry = usage.get(current) ?? {
      peakRss: 0,
      serverCores: 0,
      serverMainThreadCores: 0,
      benchCores: 0,
      machineCores: 0,
      databaseCores: Number.NaN,
    };
    if (rss !== undefined) entry.peakRss = Math.max(entry.peakRss, rss);
    usage.set(current, entry);
  };
  const close = () => {
    sample();
    const entry = usage.get(current)!;
    const wall = (performance.now() - since.wall) / 1000;
    const bench = process.cpuUsage(since.bench);
    entry.serverCores = (serverCpuSeconds(tree) - since.server) / wall;
    entry.serverMainThreadCores = (mainThreadsCpuSeconds(tree) - since.serverMainThreads) / wall;
    entry.benchCores = (bench.user + bench.system) / 1e6 / wall;
    entry.machineCores = (machineBusySeconds() - since.machine) / wall;
    if (postgresPid !== undefined)
      entry.databaseCores = (postgresCpuSeconds(postgresPid) - since.database) / wall;
  };
  const timer = setInterval(sample, intervalMs);
  sample();
  return {
    phase(name) {
      close();
      current = name;
      since = now();
      sample();
    },
    usage: () => new Map(usage),
    stop() {
      close();
      clearInterval(timer);
    },
  };
}

/** The process and its descendants, from the kernel's list of each thread's children. */
function processTree(root: number): number[] {
  const found = [root];
  for (let i = 0; i < found.length; i++) {
    const pid = found[i]!;
    let threads: string[];
    try {
      threads = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // gone, or not Linux
    }
    for (const thread of threads) {
      try {
        const children = readFileSync(`/proc/${pid}/task/${thread}/children`, 'utf8').trim();
        if (children) found.push(...children.split(' ').map(Number));
      } catch {
        // the thread has ended
      }
    }
  }
  return found;
}

/** The sum over the processes, or undefined when none could be read. */
function sumOf(pids: number[], read: (pid: number) => number | undefined): number | undefined {
  const values = pids.map(read).filter((v): v is number => v !== undefined);
  return values.length === 0 ? undefined : values.reduce((sum, v) => sum + v, 0);
}

function readRss(pid: number): number | undefined {
  try {
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined; // the process has gone, or this is not Linux
  }
}

function serverCpuSeconds(pids: number[]): number {
  return sumOf(pids, (pid) => processCpuSeconds(pid)) ?? Number.NaN;
}

/**
 * Each process's main thread (its thread id is the process's): its event loop, without libuv's pool
 * (argon2id) or V8's helper threads.
 */
function mainThreadsCpuSeconds(pids: number[]): number {
  return sumOf(pids, (pid) => statCpuSeconds(`/proc/${pid}/task/${pid}/stat`)) ?? Number.NaN;
}

function processCpuSeconds(pid: number, reaped = false): number | undefined {
  return statCpuSeconds(`/proc/${pid}/stat`, reaped);
}

/** The CPU time in a stat file of /proc: a process's, or one thread's (the same fields, for it alone). */
function statCpuSeconds(file: string, reaped = false): number | undefined {
  try {
    // Fields after the command name (which may hold spaces, so split after its closing parenthesis):
    // utime and stime are the 12th and 13th, then cutime and cstime (children waited for).
    const stat = readFileSync(file, 'utf8');
    const fields = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .slice(11, reaped ? 15 : 13);
    return fields.reduce((sum, ticks) => sum + Number(ticks), 0) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/**
 * The PostgreSQL server's CPU so far: its processes (backends come and go) and those it has reaped,
 * which the postmaster's children's times hold, so that the figure only grows.
 */
function postgresCpuSeconds(postmaster: number): number {
  const [, ...backends] = processTree(postmaster);
  return (
    (processCpuSeconds(postmaster, true) ?? Number.NaN) +
    (sumOf(backends, (pid) => processCpuSeconds(pid)) ?? 0)
  );
}

/** CPU time of all cores that was neither idle nor waiting for I/O, from /proc/stat's first line. */
function machineBusySeconds(): number {
  try {
    const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
    const [user, nice, system, , , irq, softirq] = ticks.map(Number);
    return (user! + nice! + system! + irq! + softirq!) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}
