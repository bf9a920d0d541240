import { readRawPortalConfig } from '../config/portal-config-meta';
import type { ErrorContext, ErrorReporter } from './error-reporter';

// The one seam for reporting unexpected errors: always to the console, and to the error-reporting
// service in production only (spec sections 1 and 9: decided from the host name). That service's
// client is downloaded after the page has loaded and only there; errors before it are kept for it.

const MAX_PENDING = 20;
let reporter: ErrorReporter | null = null;
// Only on the production host, until the reporter has loaded.
let pending: [unknown, ErrorContext][] | null = null;

function keep(error: unknown, context: ErrorContext): void {
  if (pending && pending.length < MAX_PENDING) pending.push([error, context]);
}

export function reportError(error: unknown, context: ErrorContext): void {
  console.error(`[${context.source}] unexpected error`, error, context);
  if (reporter) reporter(error, context);
  else keep(error, context);
}

function isProductionHost(): boolean {
  const settings = (readRawPortalConfig() as { errorReporting?: Record<string, unknown> } | null)
    ?.errorReporting;
  return Boolean(settings?.dsn) && settings?.productionHost === window.location.hostname;
}

const UNCAUGHT = ['error', 'unhandledrejection'];
// Until the reporter installs its own handlers, uncaught errors are kept for it too.
const keepUncaught = (event: Event) =>
  keep((event as ErrorEvent).error ?? (event as PromiseRejectionEvent).reason, { source: event.type });

/** Called once at start-up: elsewhere than on the production host it does nothing at all. */
export function startErrorReporting(): void {
  if (!isProductionHost()) return;
  pending = [];
  for (const type of UNCAUGHT) window.addEventListener(type, keepUncaught);
  // After the page has loaded, when the browser is idle (Safari has no requestIdleCallback).
  const load = () =>
    void import('./sentry-reporter').then(({ startSentry }) => {
      for (const type of UNCAUGHT) window.removeEventListener(type, keepUncaught);
      reporter = startSentry();
      for (const [error, context] of pending ?? []) reporter?.(error, context);
      pending = null;
    });
  const whenIdle = () => (window.requestIdleCallback ?? setTimeout)(load);
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
