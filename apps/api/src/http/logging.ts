import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Writable } from 'node:stream';
import { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { pino, type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';
import { routes } from '@customer-core/contracts';

// Query strings carry one-time tokens, authorization codes and session tokens: log their names, never their values.
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const names = [...new URLSearchParams(url.slice(q + 1)).keys()];
  return `${url.slice(0, q)}?${names.map((n) => `${encodeURIComponent(n)}=[redacted]`).join('&')}`;
}

/** The pages whose last path segment is a one-time token (e-mailed links), e.g. '/auth/password-reset'. */
export const TOKEN_PAGES = Object.values(routes)
  .map((route) => route.path)
  .filter((path) => path.endsWith('/:token'))
  .map((path) => path.slice(0, -'/:token'.length).toLowerCase());

/**
 * The path as a lenient router or browser may read it: percent-decoded (repeatedly), backslashes as
 * slashes, empty and dot segments resolved, lower case. Only for recognising token pages.
 */
function normalisedPath(path: string): string {
  let decoded = path;
  for (let round = 0; round < 5; round += 1) {
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      next = decoded.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
    if (next === decoded) break;
    decoded = next;
  }
  const segments: string[] = [];
  for (const segment of decoded.replaceAll('\\', '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`.toLowerCase();
}

/**
 * A request URL as the log may show it: query values dropped and, for a token page in any spelling
 * (`//auth/password-reset/…`, `/AUTH/…`, `/x/../auth/…`, encoded slashes), the page without its token.
 */
export function redactPath(url: string): string {
  const q = url.search(/[?#]/);
  const path = q === -1 ? url : url.slice(0, q);
  const rest = q === -1 ? '' : redactUrl(`?${url.slice(q + 1).split('#')[0]}`);
  const normalised = normalisedPath(path);
  const page = TOKEN_PAGES.find((prefix) => normalised.startsWith(`${prefix}/`));
  return page ? `${page}/[redacted]${rest}` : `${path}${rest}`;
}

const REQUEST_ID = /^[\w.-]{1,128}$/;

export type LogFormat = 'json' | 'pretty';

// Loaded only where pretty lines are asked for (development): ~11 MB in every process otherwise.
const pinoPretty = () => createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;

// Pretty lines are formatted from the already redacted and serialised record, so redaction applies to both.
function logDestination(format: LogFormat, stream?: Writable): Writable | undefined {
  return format === 'pretty'
    ? pinoPretty()({
        destination: stream ?? 1,
        // In colour in a terminal, also through `npm start`, which passes the output on (FORCE_COLOR).
        colorize: !stream && (process.stdout.isTTY || process.env.FORCE_COLOR === '1'),
        singleLine: true,
        translateTime: 'SYS:HH:MM:ss',
        ignore: 'pid,hostname,reqId',
      })
    : stream;
}

/** A logger for what happens outside any request (the process supervisor), in the servers' format. */
export function processLogger(level: string, format: LogFormat): Logger {
  const destination = logDestination(format);
  return destination ? pino({ level }, destination) : pino({ level });
}

export function loggingOptions(
  level: string,
  format: LogFormat,
  /** Where log lines go; standard output unless a test reads them. */
  stream?: Writable,
): Pick<FastifyServerOptions, 'logger' | 'genReqId' | 'requestIdHeader' | 'logController'> {
  const destination = logDestination(format, stream);
  return {
    // Pretty: one line per request from logRequestLines instead of Fastify's two records.
    ...(format === 'pretty' ? { logController: new LogController({ disableRequestLogging: true }) } : {}),
    logger: {
      level,
      ...(destination ? { stream: destination } : {}),
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
        censor: '[redacted]',
      },
      serializers: {
        req: (req: { method: string; url: string; ip?: string }) => ({
          method: req.method,
          url: redactPath(req.url),
          ip: req.ip,
        }),
      },
    },
    // A load balancer's request id is kept (when it is well-formed) so a request can be followed across systems.
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
  };
}

/** The portal build's static files: its hashed assets and the files at its root (favicon.svg). */
const STATIC_FILE = /^\/(?:assets\/|[^/?]+\.[a-z0-9]+(?:\?|$))/i;

/**
 * One concise line per answered request (`GET /auth/login 200 3 ms`), the path redacted like every
 * logged URL. Static files served are left out (a page load fetches dozens): pages, API calls and any
 * static file that failed are kept.
 */
export function logRequestLines(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    if (reply.statusCode < 400 && STATIC_FILE.test(request.url)) return done();
    request.log.info(
      `${request.method} ${redactPath(request.url)} ${reply.statusCode} ${Math.round(reply.elapsedTime)} ms`,
    );
    done();
  });
}
