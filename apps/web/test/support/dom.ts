// The page of the component tests: happy-dom's window, its DOM on the global object as a browser has
// it. Node's own globals (fetch, URL, timers, ...) stay as they are, but for the few below. Imported
// first by every component test.
import { afterEach } from 'node:test';
import { Window } from 'happy-dom';
import { PORTAL_CONFIG_META_NAME } from '@customer-core/contracts';

/** The lender of the page's configuration. */
export const LENDER = { name: 'Main Street Funding', supportPhone: '(800) 555-0142' };

const page = new Window({ url: 'http://localhost/', width: 1280, height: 800 });
const methods = Object.getPrototypeOf(Object.getPrototypeOf(page)) as object;
const names = new Set([...Object.getOwnPropertyNames(page), ...Object.getOwnPropertyNames(methods)]);
// The page's own even where node has one: React reads a submitted form with new FormData(form), and
// an event dispatched on the page's nodes must be the page's (Radix's focus and dismiss events). The
// runner keeps the component tests in processes of their own (scripts/run-tests.mjs).
const PAGE_OWN = new Set(['FormData', 'Event', 'CustomEvent']);
for (const name of names) {
  if (name === 'constructor' || (name in globalThis && !PAGE_OWN.has(name))) continue;
  const bind = Object.hasOwn(methods, name);
  Object.defineProperty(globalThis, name, {
    configurable: true,
    get(): unknown {
      const value = (page as unknown as Record<string, unknown>)[name];
      return bind && typeof value === 'function' ? (value as () => unknown).bind(page) : value;
    },
    set(value: unknown) {
      (page as unknown as Record<string, unknown>)[name] = value;
    },
  });
}
// Served as the portal always is, over https or from localhost (sign-in needs a secure context).
Object.defineProperty(page, 'isSecureContext', { value: true });

// The configuration the server writes into every page (a <meta> tag), as the demo lender's.
const config = page.document.createElement('meta');
config.setAttribute('name', PORTAL_CONFIG_META_NAME);
config.setAttribute(
  'content',
  JSON.stringify({
    lender: { name: LENDER.name, websiteUrl: 'https://lender.example', supportPhone: LENDER.supportPhone },
    identityProviders: {
      production: { issuer: 'https://id.lender.example/oauth2/default', clientId: 'portal' },
      nonProduction: { issuer: 'http://localhost/oauth2/default', clientId: 'portal' },
    },
    passkeySignInIssuer: null,
    session: { warningSeconds: 60 },
    errorReporting: { dsn: null, productionHost: null, allowedOrigins: [] },
  }),
);
page.document.head.append(config);

// The build's constants (vite.config.ts's define).
Object.assign(globalThis, {
  IS_REACT_ACT_ENVIRONMENT: true,
  __APP_NAME__: 'customer-core',
  __APP_VERSION__: '0.0.0-test',
});

// The page's fetch takes an address relative to the page, as a browser's does (the portal calls its
// API by path); any other address goes to node's own fetch unchanged.
const nodeFetch = globalThis.fetch;
globalThis.fetch = (input, init) =>
  nodeFetch(
    typeof input === 'string' && input.startsWith('/') ? new URL(input, page.location.href) : input,
    init,
  );

/** Moves the page to another address (e.g. the origin of a test's API), as a navigation would. */
export function setPageUrl(url: string): void {
  page.happyDOM.setURL(url);
}

const { cleanup, configure } = await import('@testing-library/react');
// How long a query waits for what the page is to show (a screen's code loads on demand): a bound for a
// failure only, as a passing test goes on as soon as it shows.
configure({ asyncUtilTimeout: 10_000 });
// Registered on the process's root test: every rendered tree goes after its test. The page stays
// open as long as the process (whose files may go on after a root hook has run).
afterEach(() => cleanup());
