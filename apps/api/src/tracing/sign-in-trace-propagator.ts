import { SIGN_IN_TRACE_COOKIE } from '@customer-core/contracts';
import { api, core } from '@opentelemetry/sdk-node';

const COOKIE = new RegExp(`(?:^|;\\s*)${SIGN_IN_TRACE_COOKIE}=([^;]*)`);

/**
 * Reads the trace context the portal keeps in a cookie while a sign-in runs (decision 0010): the
 * hidden-iframe authorize cannot carry a `traceparent` header, a cookie goes with every request of the
 * sign-in. A `traceparent` header, extracted after this, wins. Never injected: the server's own calls
 * carry the standard header.
 */
export class SignInTracePropagator implements api.TextMapPropagator {
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
    return api.trace.setSpanContext(context, { ...spanContext, isRemote: true });
  }

  fields(): string[] {
    return [];
  }
}
