import assert from 'node:assert/strict';
import { once } from 'node:events';
import { request as httpRequest, type ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { SIGN_IN_TRACE_COOKIE } from '@customer-core/contracts';
import * as api from '@opentelemetry/api';
import * as core from '@opentelemetry/core';
import * as node from '@opentelemetry/sdk-trace-node';
import Fastify, { type FastifyInstance } from 'fastify';
import { traceRequests } from '../src/tracing/request-spans.js';
import { SignInTracePropagator } from '../src/tracing/sign-in-trace-propagator.js';
import { TracedRequestsContextManager } from '../src/tracing/traced-requests-context.js';

// The request spans of traces (decision 0011) on a bare Fastify app, with OpenTelemetry's own SDK
// registered in this process as start-tracing.ts configures it (parent-based, roots always on: the
// ratio is request-spans.ts's), spans kept in memory. What a sampled sign-in looks like end to end, over
// OTLP from the real server, is traces.test.ts's.

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN_ID = '00f067aa0ba902b7';
const traceparent = (flags: '00' | '01') => `00-${TRACE_ID}-${CALLER_SPAN_ID}-${flags}`;

describe('a span per request', () => {
  const exporter = new node.InMemorySpanExporter();
  const provider = new node.NodeTracerProvider({
    sampler: new node.ParentBasedSampler({ root: new node.AlwaysOnSampler() }),
    spanProcessors: [new node.SimpleSpanProcessor(exporter)],
  });
  const contextManager = new TracedRequestsContextManager();
  const apps: FastifyInstance[] = [];
  /** What the handler saw as the active span, after an await. */
  const activeInHandler: Array<string | undefined> = [];
  const arrivals = new Map<string, (letGo: () => void) => void>();
  /** Resolves, with what lets it go, once a request to /held/{name} has arrived in its handler. */
  const heldAt = (name: string) => new Promise<() => void>((arrived) => arrivals.set(name, arrived));
  const activeWhenLetGo = new Map<string, string | undefined>();
  const responses = new Map<string, ServerResponse>();

  before(() => {
    provider.register({
      contextManager,
      propagator: new core.CompositePropagator({
        propagators: [new SignInTracePropagator(() => true), new core.W3CTraceContextPropagator()],
      }),
    });
  });
  after(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await provider.shutdown();
    api.trace.disable();
    api.context.disable();
    api.propagation.disable();
  });

  async function appTracedAt(rootRatio: number) {
    const app = Fastify();
    apps.push(app);
    traceRequests(app, rootRatio, contextManager);
    app.get('/things/:id', async () => {
      await new Promise((resolve) => setImmediate(resolve));
      activeInHandler.push(api.trace.getActiveSpan()?.spanContext().spanId);
      return { ok: true };
    });
    // Answers once the test lets it go (heldAt); what was active then is kept under its name.
    app.get<{ Params: { name: string } }>('/held/:name', async (request, reply) => {
      responses.set(request.params.name, reply.raw);
      await new Promise<void>((letGo) => arrivals.get(request.params.name)!(letGo));
      activeWhenLetGo.set(request.params.name, api.trace.getActiveSpan()?.spanContext().spanId);
      return { ok: true };
    });
    app.get('/broken', async () => {
      throw Object.assign(new Error('secret-in-a-message'), { code: 'BROKEN_THING' });
    });
    app.get('/healthz', async () => ({ ok: true }));
    await app.ready();
    return app;
  }
  const spans = () => exporter.getFinishedSpans();

  it('makes none for a request with no trace context that the ratio leaves out, nor for probes', async () => {
    exporter.reset();
    const never = await appTracedAt(0);
    assert.equal((await never.inject('/things/7')).statusCode, 200);
    const always = await appTracedAt(1);
    assert.equal((await always.inject('/healthz')).statusCode, 200);
    assert.deepEqual(spans(), []);
    assert.equal(activeInHandler.at(-1), undefined, 'no context was made for the request');
  });

  it("follows a caller's decision: a sampled traceparent is traced whatever the ratio, an unsampled one is not", async () => {
    exporter.reset();
    const app = await appTracedAt(0);
    await app.inject({ url: '/things/7?view=full', headers: { traceparent: traceparent('00') } });
    assert.deepEqual(spans(), []);

    await app.inject({ url: '/things/7?view=full', headers: { traceparent: traceparent('01') } });
    const [span, ...more] = spans();
    assert.ok(span);
    assert.deepEqual(more, []);
    assert.equal(span.name, 'GET /things/:id');
    assert.equal(span.kind, api.SpanKind.SERVER);
    assert.equal(span.spanContext().traceId, TRACE_ID);
    assert.equal(span.parentSpanContext?.spanId, CALLER_SPAN_ID);
    assert.deepEqual(span.attributes, {
      'http.request.method': 'GET',
      'url.path': '/things/7',
      'url.query': 'view=full',
      'http.route': '/things/:id',
      'http.response.status_code': 200,
    });
    assert.equal(
      activeInHandler.at(-1),
      span.spanContext().spanId,
      "the request's span is active in its handler",
    );
  });

  it('begins no trace for a trace context that does not parse, at a ratio that begins none', async () => {
    exporter.reset();
    const app = await appTracedAt(0);
    for (const headers of [
      { traceparent: 'not-a-traceparent' },
      { traceparent: `00-${'0'.repeat(32)}-${CALLER_SPAN_ID}-01` },
      { cookie: `${SIGN_IN_TRACE_COOKIE}=%E0%A4%A` },
      { cookie: `${SIGN_IN_TRACE_COOKIE}=garbage` },
    ]) {
      assert.equal((await app.inject({ url: '/things/10', headers })).statusCode, 200);
    }
    assert.deepEqual(spans(), []);
  });

  it("follows a sign-in's cookie as a caller's traceparent", async () => {
    exporter.reset();
    const app = await appTracedAt(0);
    await app.inject({
      url: '/things/8',
      headers: { cookie: `theme=dark; ${SIGN_IN_TRACE_COOKIE}=${traceparent('00')}` },
    });
    assert.deepEqual(
      spans().map((span) => span.spanContext().traceId),
      [TRACE_ID],
    );
  });

  it("begins a trace at the ratio, and marks a server error with the error's kind, never its message", async () => {
    exporter.reset();
    const app = await appTracedAt(1);
    await app.inject('/things/9');
    assert.equal((await app.inject('/broken')).statusCode, 500);
    const [ok, broken] = spans();
    assert.ok(ok && broken);
    assert.equal(ok.parentSpanContext, undefined, 'a trace of its own');
    assert.deepEqual(ok.status, { code: api.SpanStatusCode.UNSET });
    assert.deepEqual(broken.status, { code: api.SpanStatusCode.ERROR });
    assert.equal(broken.attributes['error.type'], 'BROKEN_THING');
    assert.equal(broken.attributes['http.response.status_code'], 500);
    assert.doesNotMatch(JSON.stringify([broken.attributes, broken.events]), /secret-in-a-message/);
  });

  it('keeps the context switched on while a traced request runs, and off once the last one has ended', async (t) => {
    exporter.reset();
    const app = await appTracedAt(0);
    const disable = t.mock.method(contextManager, 'disable');
    const traced = { traceparent: traceparent('01') };
    const firstHeld = heldAt('first');
    const secondHeld = heldAt('second');
    const first = app.inject({ url: '/held/first', headers: traced });
    const second = app.inject({ url: '/held/second', headers: traced });
    (await firstHeld)();
    await first;
    // The first request has ended (light-my-request closes its connection before the await returns),
    // the second still runs: its context is still there after an await.
    (await secondHeld)();
    await second;
    const [firstSpan, secondSpan] = spans().map((span) => span.spanContext().spanId);
    assert.deepEqual(Object.fromEntries(activeWhenLetGo), { first: firstSpan, second: secondSpan });
    assert.equal(disable.mock.callCount(), 1);

    // An untraced request enters no context, and switches nothing off.
    assert.equal((await app.inject('/things/11')).statusCode, 200);
    assert.equal(activeInHandler.at(-1), undefined);
    assert.equal(disable.mock.callCount(), 1);
  });

  it('switches the context off when a traced request’s client goes away before the answer', async (t) => {
    const app = await appTracedAt(0);
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const disable = t.mock.method(contextManager, 'disable');
    const held = heldAt('dropped');
    const client = httpRequest(`${address}/held/dropped`, { headers: { traceparent: traceparent('01') } });
    client.on('error', () => {}); // the socket it destroys below
    client.end();
    const letGo = await held;
    const closed = once(responses.get('dropped')!, 'close');
    client.destroy();
    await closed;
    assert.equal(disable.mock.callCount(), 1, 'switched off though no answer was sent');
    letGo();
  });
});
