import { captureException, init, replayIntegration, type Breadcrumb } from '@sentry/react';
import { APP_NAME, APP_VERSION } from '../config/app-info';
import { getPortalConfig } from '../config/portal-config';
import type { ErrorReporter } from './error-reporter';
import { originPattern, scrubUrl } from './error-report-privacy';

// The error-reporting service's client (Sentry), in a chunk of its own that only the production
// host downloads, after the page has loaded (performance-targets.md).

const URL_FIELDS = ['url', 'from', 'to'] as const;

function scrubBreadcrumb(breadcrumb: Breadcrumb): Breadcrumb {
  const data = breadcrumb.data;
  if (!data) return breadcrumb;
  const scrubbed = { ...data };
  for (const field of URL_FIELDS) {
    const value: unknown = scrubbed[field];
    if (typeof value === 'string') scrubbed[field] = scrubUrl(value);
  }
  return { ...breadcrumb, data: scrubbed };
}

/** Starts Sentry with the runtime configuration; null when it has no DSN. */
export function startSentry(): ErrorReporter | null {
  const settings = getPortalConfig()?.errorReporting;
  if (!settings?.dsn) return null;
  init({
    dsn: settings.dsn,
    release: `${APP_NAME}@${APP_VERSION}`,
    environment: 'production',
    allowUrls: settings.allowedOrigins.map(originPattern).filter((pattern) => pattern !== null),
    tracesSampleRate: 0,
    replaysSessionSampleRate: 0.1,
    replaysOnErrorSampleRate: 1,
    integrations: [replayIntegration({ maskAllText: true, maskAllInputs: true, blockAllMedia: true })],
    beforeBreadcrumb: scrubBreadcrumb,
    beforeSend: (event) => {
      if (event.request?.url) event.request.url = scrubUrl(event.request.url);
      return event;
    },
  });
  return (error, { source, ...details }) => captureException(error, { tags: { source }, extra: details });
}
