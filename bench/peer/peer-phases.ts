import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import { createPostgresDatabase } from '@customer-core/database/testing';
import { send } from '../http-client.js';
import { measureEndpoint, type LoadResult, type LoadSpec } from '../http-load.js';
import { sampleProcess, type PhaseUsage } from '../process-sampler.js';
import { opsPerSecond } from '../reference.js';
import { stopOnInterrupt } from '../server.js';
import { measureSignIns, type FlowResult } from '../sign-in-flow.js';
import { PEER_PASSWORD, peerEmail, seedPeerUsers, startPeerServer, type PeerServer } from './peer-server.js';

// The peer (better-auth) measured the way ours is: the same load generator and options, its own
// process sampled for RSS and CPU, a fresh database on the same PostgreSQL server.

export const PEER_USERS = 10_000;

export interface PeerResults {
  signIns: FlowResult;
  sessionCheck: LoadResult;
  sessionCheckCookieCache: LoadResult;
  /** Its JWT (ES256) verified against its JWKS in this process, one core, as a resource server would. */
  jwtVerifyPerSecond: number;
  /** Per phase, over both of its server processes (without, then with the cookie cache). */
  usage: Map<string, PhaseUsage>;
  database: string;
}

export interface PeerOptions {
  adminUrl: string;
  load: Omit<LoadSpec, 'url' | 'method'>;
  workers: number;
  /** Distinct sessions checked in turn, as many as our validate phase uses tokens. */
  sessions: number;
  verifySeconds: number;
  /** The PostgreSQL server's process, when it runs on this machine: its CPU is counted apart. */
  postgresPid: number | undefined;
}

export async function measurePeer(options: PeerOptions): Promise<PeerResults> {
  const { adminUrl, load, workers, sessions } = options;
  const database = await createPostgresDatabase(adminUrl, 'customer_core_bench_peer');
  const forget = stopOnInterrupt(database.drop);
  const usage = new Map<string, PhaseUsage>();
  try {
    const peerOn = { databaseUrl: database.url, postgresPid: options.postgresPid };
    const plain = await withPeer({ ...peerOn, cookieCache: false }, usage, async (peer, mark) => {
      // The server has made its schema by now; users go in before anything is measured.
      await seedPeerUsers(database.url, PEER_USERS);
      console.error('measuring the peer: sign-in/email ...');
      // Each worker signs in as its own user: no per-user limit or lock can be what is measured.
      const signIns = await measureSignIns(
        (_steps, worker) => peerSignIn(peer.url, worker),
        { workers, seconds: load.seconds, warmUpSeconds: load.warmUpSeconds },
        mark('sign-in'),
      );
      const cookies = await signedInCookies(peer.url, sessions, workers);
      console.error('measuring the peer: get-session without cookie cache ...');
      const sessionCheck = await measureSessionCheck(peer, cookies, load, mark('get-session'));
      const jwtVerifyPerSecond = await measureJwtVerify(peer.url, cookies[0]!, options.verifySeconds);
      return { signIns, sessionCheck, jwtVerifyPerSecond };
    });
    const cached = await withPeer({ ...peerOn, cookieCache: true }, usage, async (peer, mark) => {
      // New sessions: only a sign-in on this configuration sets the cookie holding the cached session.
      const cookies = await signedInCookies(peer.url, sessions, workers);
      if (!cookies[0]!.includes('session_data=')) throw new Error('the peer set no cookie cache');
      console.error('measuring the peer: get-session with cookie cache ...');
      return measureSessionCheck(peer, cookies, load, mark('get-session, cookie cache'));
    });
    return {
      ...plain,
      sessionCheckCookieCache: cached,
      usage,
      database: `fresh database ${database.name}, ${PEER_USERS.toLocaleString('en-US')} users`,
    };
  } finally {
    forget();
    await database.drop();
  }
}

type Mark = (phase: string) => (step: 'warm-up' | 'measure') => void;

/** One of the peer's server processes, sampled as ours is; its phases' usage lands in `usage`. */
async function withPeer<T>(
  {
    databaseUrl,
    cookieCache,
    postgresPid,
  }: { databaseUrl: string; cookieCache: boolean; postgresPid: number | undefined },
  usage: Map<string, PhaseUsage>,
  fn: (peer: PeerServer, mark: Mark) => Promise<T>,
): Promise<T> {
  const peer = await startPeerServer(databaseUrl, { cookieCache });
  const sampler = sampleProcess(peer.pid, postgresPid);
  const prefix = cookieCache ? 'cookie cache: ' : '';
  const mark: Mark = (phase) => (step) => sampler.phase(step === 'measure' ? phase : `${phase} (warm-up)`);
  try {
    const result = await fn(peer, mark);
    const exited = peer.exited();
    if (exited)
      throw new Error(`the peer's server stopped under load (${exited}):\n${peer.output().join('\n')}`);
    return result;
  } finally {
    sampler.stop();
    for (const [phase, used] of sampler.usage()) usage.set(prefix + phase, used);
    await peer.stop();
  }
}

/** Its one-call password sign-in; the session's cookies ("name=value; ..."). */
async function peerSignIn(url: string, user: number): Promise<string> {
  const { status, headers } = await send(`${url}/api/auth/sign-in/email`, {
    method: 'POST',
    // As a browser on the peer's own origin would send it.
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ email: peerEmail(user), password: PEER_PASSWORD }),
  });
  if (status !== 200) throw new Error(`sign-in/email answered ${status}`);
  return (headers['set-cookie'] ?? []).map((cookie) => cookie.split(';', 1)[0]!).join('; ');
}

/** `count` sessions of distinct users (not the sign-in workers'), `concurrency` sign-ins at a time. */
async function signedInCookies(url: string, count: number, concurrency: number): Promise<string[]> {
  const cookies: string[] = [];
  while (cookies.length < count) {
    const batch = Math.min(concurrency, count - cookies.length);
    const first = concurrency + cookies.length;
    cookies.push(...(await Promise.all(Array.from({ length: batch }, (_, i) => peerSignIn(url, first + i)))));
  }
  return cookies;
}

async function measureSessionCheck(
  peer: PeerServer,
  cookies: string[],
  load: PeerOptions['load'],
  onPhase: (step: 'warm-up' | 'measure') => void,
): Promise<LoadResult> {
  const url = `${peer.url}/api/auth/get-session`;
  // It answers 200 with null for an unknown session: check one really is a session first.
  const probe = await fetch(url, { headers: { cookie: cookies[0]! } });
  if (probe.status !== 200 || (await probe.json()) === null) throw new Error('get-session found no session');
  const headerSets = cookies.map((cookie) => ({ cookie }));
  return measureEndpoint({ ...load, url, method: 'GET', headerSets }, onPhase);
}

/** What a resource server does with its JWT: check the ES256 signature against its JWKS, then expiry. */
async function measureJwtVerify(url: string, cookie: string, seconds: number): Promise<number> {
  const { token } = (await (await fetch(`${url}/api/auth/token`, { headers: { cookie } })).json()) as {
    token: string;
  };
  const { keys } = (await (await fetch(`${url}/api/auth/jwks`)).json()) as {
    keys: (JsonWebKey & { kid: string })[];
  };
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const { kid, alg } = JSON.parse(Buffer.from(header, 'base64url').toString()) as {
    kid: string;
    alg: string;
  };
  const jwk = keys.find((key) => key.kid === kid);
  if (alg !== 'ES256' || !jwk)
    throw new Error(`the peer's JWT is ${alg}, key ${jwk ? 'found' : 'not found'}`);
  const key = createPublicKey({ key: jwk, format: 'jwk' });
  const signed = Buffer.from(`${header}.${payload}`);
  return opsPerSecond(() => {
    const valid = verify(
      'sha256',
      signed,
      { key, dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url'),
    );
    const { exp } = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { exp: number };
    if (!valid || exp * 1000 < Date.now()) throw new Error("the peer's JWT did not verify");
  }, seconds);
}
