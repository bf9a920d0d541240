import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-node';
import { redactPath, redactUrl } from '../http/redaction.js';

type Attributes = Record<string, unknown>;

/** Attributes that hold a request's URL or part of it (http and Fastify instrumentations, old and new names). */
const URL_ATTRIBUTES = new Set([
  'url.full',
  'http.url',
  'http.target',
  'url.path',
  'http.route',
  'url.original',
]);
const QUERY_ATTRIBUTES = new Set(['url.query']);
/** Request and response headers (cookies, bearer tokens): none is recorded, whatever is configured. */
const HEADER_ATTRIBUTE = /^http\.(request|response)\.header\./;
/** Parameter values of a statement (pg's enhancedDatabaseReporting, kept off): never sent. */
const STATEMENT_VALUES = new Set(['db.postgresql.values', 'db.query.parameter']);

/** A URL or path as the logs show it: query values dropped, an e-mailed link's token left out. */
function redactedUrl(value: string): string {
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(value)?.[0] ?? '';
  const rest = value.slice(origin.length);
  // user:password@ in an absolute URL (a database or collector address) goes too.
  const safeOrigin = origin.replace(/\/\/[^/@]*@/, '//');
  return `${safeOrigin}${rest === '' ? '' : redactPath(rest.startsWith('/') ? rest : `/${rest}`)}`;
}

/**
 * What may leave the server of a span's attributes: URLs, paths and query strings carry e-mailed
 * link tokens, authorization codes, state and session tokens, so only their names are kept; headers
 * and statement parameters are dropped. Changes `attributes` in place.
 */
export function redactAttributes(attributes: Attributes): void {
  for (const [key, value] of Object.entries(attributes)) {
    if (HEADER_ATTRIBUTE.test(key) || STATEMENT_VALUES.has(key) || key.startsWith('db.query.parameter.')) {
      delete attributes[key];
    } else if (typeof value !== 'string') {
      continue;
    } else if (QUERY_ATTRIBUTES.has(key)) {
      attributes[key] = redactUrl(`?${value.replace(/^\?/, '')}`).slice(1);
    } else if (URL_ATTRIBUTES.has(key)) {
      attributes[key] = redactedUrl(value);
    }
  }
}

/**
 * The OTLP exporter with every span's attributes redacted on the way out: whatever an instrumentation
 * records (the http one the URL asked for, Fastify's its path and query), the collector never sees a
 * secret. The span's name is the method and route template, which carries none.
 */
export class RedactingSpanExporter implements SpanExporter {
  constructor(private readonly exporter: SpanExporter) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    for (const span of spans) {
      redactAttributes(span.attributes);
      for (const event of span.events) if (event.attributes) redactAttributes(event.attributes);
    }
    this.exporter.export(spans, done);
  }

  shutdown(): Promise<void> {
    return this.exporter.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.exporter.forceFlush?.() ?? Promise.resolve();
  }
}
