import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Writable } from 'node:stream';
import { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { pino, type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';
import { redactPath } from './redaction.js';

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
  // Below info the line would be built for nothing, on every request. (The logger is pino's, made from
  // loggingOptions; Fastify's type leaves its level check out.)
  if (!(app.log as Logger).isLevelEnabled('info')) return;
  app.addHook('onResponse', (request, reply, done) => {
    if (reply.statusCode < 400 && STATIC_FILE.test(request.url)) return done();
    request.log.info(
      `${request.method} ${redactPath(request.url)} ${reply.statusCode} ${Math.round(reply.elapsedTime)} ms`,
    );
    done();
  });
}
