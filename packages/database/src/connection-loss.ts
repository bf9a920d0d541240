// Which failures mean "the database cannot be reached right now" rather than "this query is wrong":
// the caller answers those 503 (try again shortly) instead of 500, and the next query gets a fresh
// connection.

/** SQLSTATE classes and codes of a lost or refused connection, and of a statement cut off by a timeout. */
const CONNECTION_SQLSTATES = new Set([
  '57P01', // admin_shutdown: pg_terminate_backend, a fast shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, in recovery
  '57014', // query_canceled: statement_timeout
  '53300', // too_many_connections
]);
const SOCKET_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);
/** pg's and pg-pool's own messages (they carry no code). */
const MESSAGES = [
  /^Connection terminated/, // unexpectedly, or due to connection timeout
  /^timeout exceeded when trying to connect/, // the pool's connectionTimeoutMillis
  /^Query read timeout/, // query_timeout
  /not queryable/, // a client whose connection has failed
  /^Cannot use a pool after calling end/,
];

export function isConnectionLoss(error: unknown): boolean {
  let cause = error;
  for (let depth = 0; cause instanceof Error && depth < 5; depth += 1) {
    const { code } = cause as { code?: unknown };
    if (typeof code === 'string') {
      if (code.startsWith('08') || CONNECTION_SQLSTATES.has(code) || SOCKET_CODES.has(code)) return true;
    }
    const { message } = cause;
    if (MESSAGES.some((pattern) => pattern.test(message))) return true;
    cause = cause.cause;
  }
  return false;
}
