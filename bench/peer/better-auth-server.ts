import { createServer } from 'node:http';
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { betterAuth } from 'better-auth';
import { getMigrations } from 'better-auth/db/migration';
import { toNodeHandler } from 'better-auth/node';
import { jwt } from 'better-auth/plugins';
import pg from 'pg';

// The peer, better-auth, as a team would run it: its own process and port, its node handler on bare
// node:http, PostgreSQL through node-postgres (better-auth wraps a pg.Pool in its Kysely adapter).
// Started by peer-server.ts; prints its port on stdout once it listens and its schema exists.

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

// Our IdP's parameters (apps/idp/src/passwords.ts), so both sides pay the same for a password check.
// 2 is Argon2id; the typings' const enum cannot be inlined under isolatedModules.
const ARGON2 = { algorithm: 2 as Algorithm, memoryCost: 19456, timeCost: 2, parallelism: 1 };

const port = Number(env('PEER_PORT'));
const auth = betterAuth({
  baseURL: `http://127.0.0.1:${port}`,
  secret: env('PEER_SECRET'),
  // As many connections as our server's pool (packages/database: 10).
  database: new pg.Pool({ connectionString: env('DATABASE_URL'), max: 10 }),
  emailAndPassword: {
    enabled: true,
    password: {
      hash: (password) => hash(password, ARGON2),
      verify: ({ hash: stored, password }) => verify(stored, password),
    },
  },
  session: {
    // Off unless asked: the session check then reads the session from PostgreSQL on every call.
    cookieCache: { enabled: process.env.PEER_COOKIE_CACHE === '1', maxAge: 5 * 60 },
  },
  // Ours is measured with a distinct client address per sign-in, so its limiter never answers: the
  // peer's is switched off to the same effect (it keys on the address, and all load comes from one).
  rateLimit: { enabled: false },
  telemetry: { enabled: false },
  // Tokens on request (GET /api/auth/token), not minted on every session check: ours mints none on validate.
  plugins: [jwt({ jwks: { keyPairConfig: { alg: 'ES256' } }, disableSettingJwtHeader: true })],
});

const { runMigrations } = await getMigrations(auth.options);
await runMigrations();

const handle = toNodeHandler(auth);
const server = createServer((request, response) => void handle(request, response));
server.listen(port, '127.0.0.1', () => console.log(String(port)));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
