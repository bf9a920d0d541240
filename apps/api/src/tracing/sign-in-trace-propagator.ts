import { SIGN_IN_TRACE_COOKIE } from '@customer-core/contracts';
import * as api from '@opentelemetry/api';
import * as core from '@opentelemetry/core';

const COOKIE = new RegExp(`(?:^|;\\s*)${SIGN_IN_TRACE_COOKIE}=([^;]*)`);

/**
 * Reads the trace context the portal keeps in a cookie while a sign-in runs (decision 0011): the
 * hidden-iframe authorize cannot carry a `traceparent` header, a cookie goes with every request of the
 * sign-in. A `traceparent` header, extracted after this, wins. Never injected: the server's own calls
 * carry the standard header.
 *
 * Whether the sign-in is sampled is the server's choice, not the cookie's: `sampled` decides by the
 * trace id (the configured ratio), the same for each of the sign-in's requests.
 */
export class SignInTracePropagator implements api.TextMapPropagator {
  constructor(private readonly sampled: (traceId: string) => boolean) {}

  inject(): void {}

  extract(context: api.Context, carrier: unknown, getter: api.TextMapGetter): api.Context {
    const header = getter.get(carrier, 'cookie');
    const cookie = Array.isArray(header) ? header.join('; ') : header;
    const value = cookie ? COOKIE.exec(cookie)?.[1] : undefined;
    if (!value) return context;
    let traceparent: string;
    try {
      traceparent = decodeURIComponent(value);
    } catch {
      return context;
    }
    const spanContext = core.parseTraceParent(traceparent);
    if (!spanContext || !api.isSpanContextValid(spanContext)) return context;
    const traceFlags = this.sampled(spanContext.traceId) ? api.TraceFlags.SAMPLED : api.TraceFlags.NONE;
    return api.trace.setSpanContext(context, { ...spanContext, traceFlags, isRemote: true });
  }

  fields(): string[] {
    return [];
  }
}
