import assert from 'node:assert/strict';
import { Agent } from 'node:http';
import { after, before, describe, it } from 'node:test';
import {
  authEndpoints,
  routes as portalRoutes,
  type LoanDetail,
  type LoanList,
  loanEndpoints,
} from '@customer-core/contracts';
import type { TestDatabaseKind } from '@customer-core/database/testing';
import { DEMO_BORROWER } from '../../src/loans/demo-borrower.js';
import {
  signInThroughIdp,
  startTestOrg,
  startTestServer,
  type TestOrg,
  type TestServer,
} from '../../testing/index.js';
import {
  hostileJwts,
  hostileRequests,
  ROUNDS_FOR_EVERY_FAMILY,
  seededRandom,
  send,
  targetsOf,
  type Answer,
  type HostileRequest,
  type Target,
} from './hostile-requests.js';
import { builtPortal, type BuiltPortal } from './built-portal.js';
import { isRoute, pathOf, shapeSweep } from './hostile-shapes.js';
import { accessTokenOf, call, giveEsignConsent, OPERATOR_ENV, OPERATOR_SECRET } from './loans.js';
import { staffToken } from './console.js';

// Hostile input across every route: whatever a client sends, the answer is never a 5xx (a 503 that
// carries Retry-After is load-shedding, not a failure) and the process lives on. The routes come from
// the server itself (every registered route, the identity provider's endpoints from its discovery
// document, every portal page), so a new route is fuzzed without anyone listing it.
// Every route gets a dozen requests, which take every family of hostile shapes in turn (see
// hostile-requests.ts); the portal's files, one handler, one each. A fixed seed per database by
// default, so that a run's verdict depends on the code alone; FUZZ_SEED=random explores new requests,
// and every run prints its seed, which FUZZ_SEED=<seed> replays. FUZZ_ROUNDS=<n> asks every route n
// times (more of the same families, with other values). One file per database, so that the two runs
// go side by side.
// Then a sweep without chance (hostile-shapes.ts): every route of the API and of the identity
// provider, the latter also as an org of its own with an API token (its Okta API open), gets each
// shape that once answered 500: deep nesting, forged cursors, odd dates.

const ROUNDS = Number(process.env.FUZZ_ROUNDS ?? ROUNDS_FOR_EVERY_FAMILY);
const DEFAULT_SEEDS: Record<TestDatabaseKind, number> = { pglite: 718081094, postgres: 1626748067 };
const CONCURRENCY = 12;
/** The sweep's well-shaped values (which enum member, which number): fixed, as its shapes are. */
const SWEEP_SEED = 1;

/** The hostile-input run against a server on one kind of database. */
export function hostileInputSuite(kind: TestDatabaseKind): void {
  describe(`hostile input (${kind})`, () => {
    let server: TestServer;
    let accessToken: string;
    let consoleToken: string;
    let idToken: string;
    let loan: { id: string; reference: string; documentId: string };
    let org: TestOrg;
    let issuer: string;
    let targets: Target[];
    let portal: BuiltPortal;

    before(async () => {
      // Behind a proxy, so each request's own X-Forwarded-For keeps per-address limits out of the way.
      // The portal's files are served from a folder laid out as its build's, so no build is needed.
      portal = builtPortal();
      server = await startTestServer(
        kind,
        { ...OPERATOR_ENV, TRUST_PROXY: 'true' },
        { portalDir: portal.dir },
      );
      const demo = { username: DEMO_BORROWER.login, password: DEMO_BORROWER.password };
      accessToken = await accessTokenOf(server.baseUrl, demo.username, demo.password);
      idToken = (await signInThroughIdp(server.baseUrl, demo)).idToken;
      // A staff member's console token (support: the role's refusals are fuzzed too).
      consoleToken = (await staffToken(server, 'support')).token;
      // An active loan whose checkout has started and whose signed document is reviewed: a signature
      // name reaches the database.
      const { body: list } = await call(server.baseUrl, 'GET', loanEndpoints.loans.path, accessToken);
      const active = (list as unknown as LoanList).loans.find((l) => l.status === 'ACTIVE');
      assert.ok(active, 'the demo borrower has an active loan');
      const loanId = active.id;
      await call(server.baseUrl, 'POST', loanEndpoints.startCheckout.href({ loanId }), accessToken);
      const { body: detail } = await call(
        server.baseUrl,
        'GET',
        loanEndpoints.loan.href({ loanId }),
        accessToken,
      );
      const document = (detail as unknown as LoanDetail).documents.find((d) => d.requiresSignature);
      assert.ok(document, 'the active loan has a document to sign');
      const reviewed = await call(
        server.baseUrl,
        'POST',
        loanEndpoints.reviewDocument.href({ loanId, documentId: document.id }),
        accessToken,
      );
      assert.equal(reviewed.status, 200);
      await giveEsignConsent(server.baseUrl, accessToken);
      loan = { id: loanId, reference: active.reference, documentId: document.id };

      // The routes come from the server itself, the identity provider's endpoints from its discovery document.
      issuer = `${server.baseUrl}/oauth2/default`;
      const discovery = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as Record<
        string,
        unknown
      >;
      const providerEndpoints = Object.entries(discovery)
        .filter(
          ([name, value]) => (name.endsWith('_endpoint') || name === 'jwks_uri') && typeof value === 'string',
        )
        .map(([, value]) => new URL(value as string).pathname);
      targets = [
        ...targetsOf(server.server.routes),
        ...providerEndpoints.flatMap((pattern) => [
          { method: 'GET', pattern, oauth: true },
          { method: 'POST', pattern, oauth: true },
        ]),
        ...Object.values(portalRoutes).map((page) => ({ method: 'GET', pattern: page.path })),
      ];
      org = await startTestOrg(kind, server.baseUrl);
    });
    after(async () => {
      await org?.stop();
      await server?.close();
      portal?.remove();
    });

    it(`answers generated hostile requests, ${ROUNDS} to every route, without a 5xx`, async () => {
      const asked = process.env.FUZZ_SEED;
      const seed =
        asked === 'random' ? Math.floor(Math.random() * 2 ** 32) : Number(asked ?? DEFAULT_SEEDS[kind]);
      console.log(`hostile input (${kind}): seed ${seed} (FUZZ_SEED=${seed} replays these requests)`);
      const patterns = new Set(targets.map((t) => t.pattern));
      for (const expected of [
        authEndpoints.tokenExchange.path,
        '/api/v1/authn',
        '/dev/mailbox',
        `${new URL(issuer).pathname}/v1/token`,
      ]) {
        assert.ok(patterns.has(expected), `${expected} is among the fuzzed routes`);
      }

      const requests = hostileRequests(
        seededRandom(seed),
        targets,
        {
          accessToken,
          idToken,
          operatorSecret: OPERATOR_SECRET,
          jwts: [
            ...hostileJwts(issuer, 'customer-portal', idToken),
            ...hostileJwts(server.baseUrl, 'customer-core', accessToken),
            ...hostileJwts(server.baseUrl, 'customer-core-console', consoleToken),
          ],
        },
        {
          byName: {
            loanId: loan.id,
            documentId: loan.documentId,
            reference: loan.reference,
            client_id: 'customer-portal',
            redirect_uri: `${server.baseUrl}/auth/callback`,
            token: idToken,
            access_token: accessToken,
            username: 'fuzz@example.com',
            password: 'Fuzz-Pass-2026!',
            signatureName: `${DEMO_BORROWER.firstName} ${DEMO_BORROWER.lastName}`,
          },
        },
        ROUNDS,
      );

      const outcome = await sendAll(new URL(server.server.address), requests);
      console.log(
        `hostile input (${kind}): ${outcome.sent} requests sent to ${targets.length} route targets, ${summary(outcome)}`,
      );
      assert.equal(outcome.sent, requests.length);
      assert.deepEqual(
        verdict(outcome),
        { byRoute: {}, first: [] },
        `seed ${seed}: ${outcome.failures.length} answers 5xx`,
      );

      // Still alive and still serving borrowers.
      assert.equal((await fetch(`${server.baseUrl}/healthz`)).status, 200);
      await accessTokenOf(server.baseUrl, DEMO_BORROWER.login, DEMO_BORROWER.password);
    });

    it('answers deep nesting, forged cursors and odd dates on every route of the API and the identity provider without a 5xx', async () => {
      const known = {
        byName: {
          loanId: loan.id,
          documentId: loan.documentId,
          reference: loan.reference,
          // A borrower who exists, so that an operator's query reaches the borrower's pages.
          email: DEMO_BORROWER.login,
          borrowerEmail: DEMO_BORROWER.login,
          idOrLogin: DEMO_BORROWER.login,
          client_id: 'customer-portal',
          redirect_uri: `${server.baseUrl}/auth/callback`,
          signatureName: `${DEMO_BORROWER.firstName} ${DEMO_BORROWER.lastName}`,
        },
      };
      const none = {};
      const borrower = { authorization: `Bearer ${accessToken}` };
      const operator = { authorization: `Bearer ${OPERATOR_SECRET}` };
      const staff = { authorization: `Bearer ${consoleToken}` };
      const portal = new URL(server.server.address);
      const orgOrigin = new URL(org.url);
      const sswsToken = { authorization: `SSWS ${org.apiToken}` };

      // The header set each GET is let through with: the first of them its plain request is not refused with.
      const accepted = new Map<Target, Record<string, string>>();
      const agent = new Agent({ keepAlive: true });
      try {
        for (const target of targets.filter((t) => isRoute(t) && t.method === 'GET')) {
          const path = pathOf(target.pattern, known);
          for (const headers of [borrower, operator]) {
            const answer = await send(agent, portal, { method: 'GET', path, headers });
            if (answer !== 'closed' && answer.status !== 401 && answer.status !== 403) {
              accepted.set(target, headers);
              break;
            }
          }
        }
      } finally {
        agent.destroy();
      }
      const sweep = shapeSweep(targets, {
        random: seededRandom(SWEEP_SEED),
        known,
        credentials: [none, borrower, operator, staff],
        accepted: (target) => accepted.get(target) ?? none,
        undeclaredOneByOne: () => false,
        bodyLimit: server.server.app.initialConfig.bodyLimit ?? 1024 * 1024,
      });
      // The identity provider's own routes, at an org that opens its Okta API to a token.
      const ofProvider = (t: Target) =>
        t.pattern.startsWith('/api/v1/') || t.pattern.startsWith(new URL(issuer).pathname);
      const orgSweep = shapeSweep(targets.filter(ofProvider), {
        random: seededRandom(SWEEP_SEED),
        known,
        credentials: [sswsToken],
        accepted: () => sswsToken,
        // Its Okta API reads its query by hand; oidc-provider's endpoints read no paging names.
        undeclaredOneByOne: (target) => target.pattern.startsWith('/api/v1/'),
        bodyLimit: 1024 * 1024, // Fastify's default, which the org keeps
      });

      const [atPortal, atOrg] = await Promise.all([sendAll(portal, sweep), sendAll(orgOrigin, orgSweep)]);
      console.log(`hostile shapes (${kind}): portal: ${atPortal.sent} requests, ${summary(atPortal)}`);
      console.log(
        `hostile shapes (${kind}): identity provider as an org: ${atOrg.sent} requests, ${summary(atOrg)}`,
      );
      assert.deepEqual(
        { portal: verdict(atPortal), org: verdict(atOrg) },
        { portal: { byRoute: {}, first: [] }, org: { byRoute: {}, first: [] } },
        `${atPortal.failures.length + atOrg.failures.length} answers 5xx`,
      );
      assert.equal((await fetch(`${server.baseUrl}/healthz`)).status, 200);
      assert.equal((await fetch(`${org.url}/healthz`)).status, 200);
    });
  });
}

interface Outcome {
  sent: number;
  statuses: Map<number, number>;
  closed: number;
  shed: number;
  failures: string[];
}

/** Sends the requests, CONCURRENCY at a time; a 503 with Retry-After is load-shedding, not a failure. */
async function sendAll(origin: URL, requests: readonly HostileRequest[]): Promise<Outcome> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const outcome: Outcome = { sent: 0, statuses: new Map(), closed: 0, shed: 0, failures: [] };
  const count = (answer: Answer) =>
    outcome.statuses.set(answer.status, (outcome.statuses.get(answer.status) ?? 0) + 1);
  const worker = async () => {
    while (outcome.sent < requests.length) {
      const index = outcome.sent;
      outcome.sent += 1;
      const request = requests[index]!;
      const answer = await send(agent, origin, request);
      if (answer === 'closed') {
        outcome.closed += 1;
        continue;
      }
      count(answer);
      if (answer.status < 500) continue;
      if (answer.status === 503 && answer.retryAfter) {
        outcome.shed += 1;
        continue;
      }
      outcome.failures.push(
        `#${index} ${request.method} ${request.path.slice(0, 160)} body ${JSON.stringify(request.body?.slice(0, 160))} -> ${answer.status} ${answer.body}`,
      );
    }
  };
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  } finally {
    agent.destroy();
  }
  return outcome;
}

const summary = (outcome: Outcome) => {
  const histogram = [...outcome.statuses]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}: ${n}`)
    .join(', ');
  return (
    `${outcome.failures.length} answers 5xx, ${outcome.shed} answers 503 with Retry-After (not counted), ` +
    `${outcome.closed} connections closed by the server; ${histogram}`
  );
};

/** The 5xx answers by route, and the first ten in full. */
function verdict(outcome: Outcome) {
  const byRoute = new Map<string, number>();
  for (const failure of outcome.failures) {
    const route = failure.replace(/^#\d+ (\S+) ([^?\s]*).*$/, '$1 $2');
    byRoute.set(route, (byRoute.get(route) ?? 0) + 1);
  }
  return { byRoute: Object.fromEntries(byRoute), first: outcome.failures.slice(0, 10) };
}
