import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import type { FastifyServerOptions } from 'fastify';

// Query strings carry one-time tokens, authorization codes and session tokens: log their names, never their values.
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const names = [...new URLSearchParams(url.slice(q + 1)).keys()];
  return `${url.slice(0, q)}?${names.map((n) => `${encodeURIComponent(n)}=[redacted]`).join('&')}`;
}

// Path segments after these prefixes are one-time tokens (e-mailed links).
const TOKEN_PATH =
  /^(\/(?:auth\/password-reset|auth\/magic-link-landing|user-registration|app\/email-verification|ui\/direct-app\/email-verification))\/[^/?]+/;

export function redactPath(url: string): string {
  return redactUrl(url).replace(TOKEN_PATH, '$1/[redacted]');
}

const REQUEST_ID = /^[\w.-]{1,128}$/;

export function loggingOptions(
  level: string,
  /** Where log lines go; standard output unless a test reads them. */
  stream?: Writable,
): Pick<FastifyServerOptions, 'logger' | 'genReqId' | 'requestIdHeader'> {
  return {
    logger: {
      level,
      ...(stream ? { stream } : {}),
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
