import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';

/**
 * OpenTelemetry's context manager, its AsyncLocalStorage switched off whenever no traced request runs.
 * On Node 20 an AsyncLocalStorage in use hooks the creation of every promise in the process, and once a
 * context has been entered it stays in use: with a tenth of the requests traced, the untraced ones paid
 * for it as well (bench: observability, validate with traces). Untraced requests enter no context
 * (request-spans.ts), so it is turned off each time the last traced request ends. Work a traced request
 * leaves running after its answer sees no context then, and makes no span of its own.
 */
export class TracedRequestsContextManager extends AsyncLocalStorageContextManager {
  private tracedRequests = 0;

  requestBegins(): void {
    this.tracedRequests += 1;
  }

  requestEnded(): void {
    this.tracedRequests -= 1;
    if (this.tracedRequests === 0) this.disable();
  }
}
