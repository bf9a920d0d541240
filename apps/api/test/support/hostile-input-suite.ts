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
import { DEMO_BORROWER } from '../../src/demo-borrower.js';
import { signInThroughIdp, startTestServer, type TestServer } from '../../src/testing/index.js';
import {
  hostileJwts,
  hostileRequestGenerator,
  seededRandom,
  send,
  targetsOf,
  type HostileRequest,
  type Target,
} from './hostile-requests.js';
import { accessTokenOf, call, OPERATOR_ENV, OPERATOR_SECRET } from './loans.js';

// Hostile input across every route: whatever a client sends, the answer is never a 5xx (a 503 that
// carries Retry-After is load-shedding, not a failure) and the process lives on. The routes come from
// the server itself (every registered route, the identity provider's endpoints from its discovery
// document, every portal page), so a new route is fuzzed without anyone listing it.
// A fixed seed per database by default, so that a run's verdict depends on the code alone (each is a
// seed that once found a 500 or a broken answer); FUZZ_SEED=random explores new requests, and every
// run prints its seed, which FUZZ_SEED=<seed> replays. FUZZ_REQUESTS changes the size. One file per
// database, so that the two runs, the longest of the suite, go side by side.

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000);
const DEFAULT_SEEDS: Record<TestDatabaseKind, number> = { pglite: 718081094, postgres: 1626748067 };
const CONCURRENCY = 12;

/** The hostile-input run against a server on one kind of database. */
export function hostileInputSuite(kind: TestDatabaseKind): void {
  describe(`hostile input (${kind})`, () => {
    let server: TestServer;
    let accessToken: string;
    let idToken: string;
    let loan: { id: string; reference: string; documentId: string };

    before(async () => {
      // Behind a proxy, so each request's own X-Forwarded-For keeps per-address limits out of the way.
      server = await startTestServer(kind, { ...OPERATOR_ENV, TRUST_PROXY: 'true' });
      const demo = { username: DEMO_BORROWER.login, password: DEMO_BORROWER.password };
      accessToken = await accessTokenOf(server.baseUrl, demo.username, demo.password);
      idToken = (await signInThroughIdp(server.baseUrl, demo)).idToken;
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
      loan = { id: loanId, reference: active.reference, documentId: document.id };
    });
    after(() => server?.close());

    it(`answers ${REQUESTS} generated hostile requests on every route without a 5xx`, async () => {
      const asked = process.env.FUZZ_SEED;
      const seed =
        asked === 'random' ? Math.floor(Math.random() * 2 ** 32) : Number(asked ?? DEFAULT_SEEDS[kind]);
      console.log(`hostile input (${kind}): seed ${seed} (FUZZ_SEED=${seed} replays these requests)`);
      const origin = new URL(server.server.address);
      const issuer = `${server.baseUrl}/oauth2/default`;

      const discovery = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as Record<
        string,
        unknown
      >;
      const providerEndpoints = Object.entries(discovery)
        .filter(
          ([name, value]) => (name.endsWith('_endpoint') || name === 'jwks_uri') && typeof value === 'string',
        )
        .map(([, value]) => new URL(value as string).pathname);
      const targets: Target[] = [
        ...targetsOf(server.server.routes),
        ...providerEndpoints.flatMap((pattern) => [
          { method: 'GET', pattern, oauth: true },
          { method: 'POST', pattern, oauth: true },
        ]),
        ...Object.values(portalRoutes).map((page) => ({ method: 'GET', pattern: page.path })),
      ];
      const patterns = new Set(targets.map((t) => t.pattern));
      for (const expected of [
        authEndpoints.tokenExchange.path,
        '/api/v1/authn',
        '/dev/mailbox',
        `${new URL(issuer).pathname}/v1/token`,
      ]) {
        assert.ok(patterns.has(expected), `${expected} is among the fuzzed routes`);
      }

      const random = seededRandom(seed);
      const next = hostileRequestGenerator(
        random,
        targets,
        {
          accessToken,
          idToken,
          operatorSecret: OPERATOR_SECRET,
          jwts: [
            ...hostileJwts(issuer, 'customer-portal', idToken),
            ...hostileJwts(server.baseUrl, 'customer-core', accessToken),
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
            signatureName: 'Demo Borrower',
          },
        },
      );
      const requests: HostileRequest[] = Array.from({ length: REQUESTS }, next);

      const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
      const statuses = new Map<number, number>();
      const failures: string[] = [];
      let sent = 0;
      let closed = 0;
      let shed = 0;
      let serverErrors = 0;
      const worker = async () => {
        while (sent < requests.length) {
          const index = sent;
          sent += 1;
          const request = requests[index]!;
          const answer = await send(agent, origin, request);
          if (answer === 'closed') {
            closed += 1;
            continue;
          }
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          if (answer.status < 500) continue;
          if (answer.status === 503 && answer.retryAfter) {
            shed += 1;
            continue;
          }
          serverErrors += 1;
          failures.push(
            `#${index} ${request.method} ${request.path.slice(0, 160)} body ${JSON.stringify(request.body?.slice(0, 160))} -> ${answer.status} ${answer.body}`,
          );
        }
      };
      try {
        await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      } finally {
        agent.destroy();
      }

      const histogram = [...statuses]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}: ${n}`)
        .join(', ');
      console.log(
        `hostile input (${kind}): ${sent} requests sent to ${targets.length} route targets, ${serverErrors} answers 5xx, ` +
          `${shed} answers 503 with Retry-After (not counted), ${closed} connections closed by the server; ${histogram}`,
      );
      assert.equal(sent, REQUESTS);
      const byRoute = new Map<string, number>();
      for (const failure of failures) {
        const route = failure.replace(/^#\d+ (\S+) ([^?\s]*).*$/, '$1 $2');
        byRoute.set(route, (byRoute.get(route) ?? 0) + 1);
      }
      assert.deepEqual(
        { byRoute: Object.fromEntries(byRoute), first: failures.slice(0, 10) },
        { byRoute: {}, first: [] },
        `seed ${seed}: ${serverErrors} answers 5xx`,
      );

      // Still alive and still serving borrowers.
      assert.equal((await fetch(`${server.baseUrl}/healthz`)).status, 200);
      await accessTokenOf(server.baseUrl, DEMO_BORROWER.login, DEMO_BORROWER.password);
    });
  });
}
