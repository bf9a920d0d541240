import assert from 'node:assert/strict';
import { after } from 'node:test';
import type { Browser, BrowserContext, ConsoleMessage, Page, Request } from 'playwright-core';
import {
  ACCESS_TOKEN_STORAGE_KEY,
  LOCALE_STORAGE_KEY,
  PROFILE_STORAGE_KEY,
  routes,
  STEP_UP_MAX_AGE_SECONDS,
  WITHOUT_IDP_SESSION_STORAGE_KEY,
} from '@customer-core/contracts';
import {
  freePort,
  mintSession,
  signedInAgo,
  startTestOrg,
  startTestServer,
  type TestOrg,
  type TestServer,
} from '@customer-core/api/testing';
import {
  CSP_VIOLATION,
  DESKTOP,
  launchBrowser,
  launchBrowserBlockingThirdPartyCookies,
  reportCspViolations,
  shownText,
} from './browser.js';

export const DEMO = {
  email: 'demo@example.com',
  password: 'Demo-Borrower-1',
  firstName: 'Dana',
  lastName: 'Demo',
};

export interface Portal {
  server: TestServer;
  browser: Browser;
  baseUrl: string;
  /**
   * A fresh browser profile (own cookies and storage), e.g. another browser by its User-Agent, or one
   * set to a language (`locale`, as the browser's languages).
   */
  newPage(options?: {
    userAgent?: string;
    locale?: string;
  }): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

/**
 * The real server (built portal, API, bundled IdP, embedded database — or PostgreSQL with
 * TEST_DATABASE_URL for kind 'postgres') and a browser for it (the process's, unless given one).
 */
export async function openPortal(
  env: Record<string, string> = {},
  kind: Parameters<typeof startTestServer>[0] = 'pglite',
  options: { browser?: Browser } = {},
): Promise<Portal> {
  const server = await startOnProcessPort(kind, env);
  const browser =
    options.browser ??
    (await processBrowser().catch(async (error: unknown) => {
      await server.close();
      throw error;
    }));
  const contexts: BrowserContext[] = [];
  return {
    server,
    browser,
    baseUrl: server.baseUrl,
    async newPage(options = {}) {
      const asGiven = Object.keys(options).length > 0;
      const context =
        (asGiven ? undefined : takeIdleContext(browser, server.baseUrl)) ??
        (await newPortalContext(browser, server.baseUrl, options));
      contexts.push(context);
      return { context, page: await context.newPage() };
    },
    async close() {
      for (const context of contexts) await release(context, server.baseUrl, browser);
      await server.close();
    },
  };
}

async function newPortalContext(
  browser: Browser,
  baseUrl: string,
  options: Parameters<Portal['newPage']>[0],
): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: DESKTOP, ...options });
  await context.addInitScript(reportCspViolations, CSP_VIOLATION);
  if (Object.keys(options ?? {}).length > 0) spoiled.add(context);
  else noteWhatSpoils(context);
  return context;
}

/**
 * A browser context costs Chromium most on its first page: every script of the portal fetched and
 * compiled again (about half a second of CPU, of a browser test's few). So a finished portal's plain
 * contexts, emptied of cookies, storage and pages, are kept for the next portal of the process on the
 * same origin (the process's port, below), which then loads the portal from the context's cache, as a
 * returning borrower's browser would. A context a test changed in a way emptying cannot undo (routes,
 * a clock, init scripts, permissions, headers, offline) or made with options of its own is closed.
 */
const idleContexts = new Map<string, BrowserContext[]>();
const spoiled = new WeakSet<BrowserContext>();
const SPOILING = [
  'route',
  'routeFromHAR',
  'routeWebSocket',
  'addInitScript',
  'exposeBinding',
  'exposeFunction',
  'grantPermissions',
  'setExtraHTTPHeaders',
  'setGeolocation',
  'setHTTPCredentials',
  'setOffline',
] as const;

function noteWhatSpoils(context: BrowserContext): void {
  const spoil = <F extends (...args: never[]) => unknown>(original: F): F =>
    ((...args: Parameters<F>) => {
      spoiled.add(context);
      return original(...args);
    }) as F;
  for (const method of SPOILING) {
    (context as unknown as Record<string, unknown>)[method] = spoil(
      (context[method] as (...args: never[]) => unknown).bind(context),
    );
  }
  context.clock.install = spoil(context.clock.install.bind(context.clock));
}

function takeIdleContext(browser: Browser, baseUrl: string): BrowserContext | undefined {
  const idle = idleContexts.get(baseUrl) ?? [];
  let context: BrowserContext | undefined;
  while ((context = idle.pop()) && context.browser() !== browser);
  return context;
}

/** Kept for the next portal, emptied, when nothing spoiled it; closed otherwise. */
async function release(context: BrowserContext, baseUrl: string, browser: Browser): Promise<void> {
  const keep = !spoiled.has(context) && browser === browserOfProcessNow && browser.isConnected();
  try {
    if (!keep) return await context.close();
    const page = context.pages()[0] ?? (await context.newPage());
    const cdp = await context.newCDPSession(page);
    // Everything a site keeps but the HTTP cache (cookies of every site, storage of the portal's origin).
    await context.clearCookies();
    await cdp.send('Storage.clearDataForOrigin', { origin: baseUrl, storageTypes: 'all' });
    await cdp.detach();
    for (const open of context.pages()) await open.close();
    (idleContexts.get(baseUrl) ?? idleContexts.set(baseUrl, []).get(baseUrl)!).push(context);
  } catch {
    await context.close().catch(() => {});
  }
}

/**
 * The port every portal of the process listens on while no other portal of the process holds it: the
 * origin the kept contexts have cached. Taken meanwhile by another process, a free port serves instead.
 */
let processPort: number | undefined;
const portsHeld = new Set<number>();
async function startOnProcessPort(
  kind: Parameters<typeof startTestServer>[0],
  env: Record<string, string>,
): Promise<TestServer> {
  processPort ??= await freePort();
  const wanted = portsHeld.has(processPort) ? undefined : processPort;
  const server = await startTestServer(kind, env, { port: wanted }).catch((error: unknown) => {
    if (wanted === undefined || (error as { code?: string }).code !== 'EADDRINUSE') throw error;
    return startTestServer(kind, env);
  });
  const port = server.config.port;
  portsHeld.add(port);
  return {
    ...server,
    async close() {
      await server.close();
      portsHeld.delete(port);
    },
  };
}

/**
 * One Chromium for every portal a test process opens (its files run one after another): each portal's
 * pages get browser contexts of their own, which share no cookies or storage.
 */
let browserOfProcess: Promise<Browser> | undefined;
let browserOfProcessNow: Browser | undefined;
async function processBrowser(): Promise<Browser> {
  // A launch that failed, or a browser that crashed, fails its own portal only: the next one relaunches.
  const current = await browserOfProcess?.catch(() => undefined);
  if (current?.isConnected()) return current;
  idleContexts.clear();
  browserOfProcess = launchBrowser();
  browserOfProcessNow = await browserOfProcess;
  return browserOfProcessNow;
}
// Registered on the process's root test: it runs after every test file of the process.
after(() =>
  browserOfProcess?.then(
    (browser) => browser.close(),
    () => {},
  ),
);

/**
 * The deployment with a hosted Okta org: "the org" (the bundled identity provider as a process of its
 * own, on another origin, with its own database) and the portal pointed at it with an API token.
 * `crossSite`: the portal on another site than the org (127.0.0.1 beside localhost), in a browser that
 * blocks third-party cookies, so the org's cookies never reach it in the portal's pages.
 */
export async function openPortalWithOrg(
  env: Record<string, string> = {},
  kind: Parameters<typeof startTestServer>[0] = 'pglite',
  { crossSite = false }: { crossSite?: boolean } = {},
): Promise<Portal & { org: TestOrg }> {
  const org = await startTestOrg(kind, `http://${crossSite ? '127.0.0.1' : 'localhost'}:${await freePort()}`);
  let ownBrowser: Awaited<ReturnType<typeof launchBrowserBlockingThirdPartyCookies>> | undefined;
  try {
    if (crossSite) ownBrowser = await launchBrowserBlockingThirdPartyCookies();
    const portal = await openPortal(
      { ...env, ...org.portalEnv },
      kind,
      ownBrowser ? { browser: ownBrowser.browser } : {},
    );
    return {
      ...portal,
      org,
      async close() {
        await portal.close();
        await ownBrowser?.close();
        await org.stop();
      },
    };
  } catch (error) {
    await ownBrowser?.close();
    await org.stop();
    throw error;
  }
}

/** A JSON POST as the page's own request: its cookies, its User-Agent. */
async function postJsonFromPage(page: Page, path: string, body: unknown) {
  const { status, text } = await page.evaluate(
    async ([to, json]) => {
      const response = await fetch(to!, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: json!,
      });
      return { status: response.status, text: await response.text() };
    },
    [path, JSON.stringify(body)],
  );
  assert.equal(status, 200, text);
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * Signs a borrower in without the sign-in form, for a test whose subject is not signing in: a session
 * minted for them (`mintSession`: a real session of the real session service, as after a password
 * sign-in just now), held by the page as a product session that stands alone, without an
 * identity-provider session (as after a sign-in link with a hosted org). Then opens `path`. A test of
 * signing in, of the identity provider's session (sign-out there, a second factor) or of the activity
 * a sign-in leaves uses the form (signInAsDemo).
 * `fromBrowser`: the page itself exchanges the token, so the session begins as this browser's (its
 * User-Agent and device, as the account page lists them); otherwise the test process exchanges it.
 */
export async function signInBySession(
  portal: Portal,
  page: Page,
  {
    email = DEMO.email,
    path = routes.dashboard.path,
    fromBrowser = false,
  }: { email?: string; path?: string; fromBrowser?: boolean } = {},
): Promise<string> {
  // Any page of the origin gives its storage (and its fetch); the smallest is the health check's.
  await page.goto('/healthz');
  const { accessToken, borrower } = await mintSession(
    portal.server,
    email,
    fromBrowser ? { exchange: (path, body) => postJsonFromPage(page, path, body) } : {},
  );
  await page.evaluate(
    ([aloneKey, tokenKey, profileKey, token, profile]) => {
      localStorage.setItem(aloneKey!, 'true');
      localStorage.setItem(profileKey!, profile!);
      localStorage.setItem(tokenKey!, token!);
    },
    [
      WITHOUT_IDP_SESSION_STORAGE_KEY,
      ACCESS_TOKEN_STORAGE_KEY,
      PROFILE_STORAGE_KEY,
      accessToken,
      JSON.stringify({ login: email, firstName: borrower.firstName, lastName: borrower.lastName }),
    ],
  );
  await page.goto(path);
  return accessToken;
}

/**
 * Stores `locale` as this browser's choice of language before the portal loads, as the footer's
 * switcher leaves it (any page of the origin gives its storage; the health check's is the smallest).
 */
export async function chooseLanguageBeforehand(page: Page, locale: string): Promise<void> {
  await page.goto('/healthz');
  await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [LOCALE_STORAGE_KEY, locale]);
}

/** Fills and submits the sign-in form as a borrower would. */
export async function submitSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'LOGIN' }).click();
}

/**
 * Signs the demo borrower in from the sign-in page and waits for the signed-in home. When the home does
 * not come, the failure says where the page was, what it showed, its console errors and the requests
 * still unanswered.
 */
export async function signInAsDemo(page: Page): Promise<void> {
  const consoleErrors: string[] = [];
  const unanswered = new Set<Request>();
  const onConsole = (message: ConsoleMessage) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  };
  const onRequest = (request: Request) => unanswered.add(request);
  const onAnswered = (request: Request) => unanswered.delete(request);
  page.on('console', onConsole);
  page.on('request', onRequest);
  page.on('requestfinished', onAnswered);
  page.on('requestfailed', onAnswered);
  try {
    await page.goto(routes.signIn.path);
    await submitSignIn(page, DEMO.email, DEMO.password);
    // A bound, not a time asserted: a fresh browser profile (a test's own clock) fetches every script
    // and both catalogues again through the identity provider's redirect, on a machine running the
    // whole suite at once.
    await page.waitForURL((url) => url.pathname === routes.dashboard.path, { timeout: 45_000 });
  } catch (error) {
    const shown = await shownText(page);
    const pending = [...unanswered].map((request) => `${request.method()} ${request.url()}`);
    throw new Error(
      `The signed-in home did not come. At ${page.url()}, the page showed:\n${shown}\n` +
        `Console errors: ${JSON.stringify(consoleErrors)}\nUnanswered requests: ${JSON.stringify(pending)}`,
      { cause: error },
    );
  } finally {
    page.off('console', onConsole);
    page.off('request', onRequest);
    page.off('requestfinished', onAnswered);
    page.off('requestfailed', onAnswered);
  }
}

export function readPortalStorage(page: Page) {
  return page.evaluate(
    ([tokenKey, profileKey]) => ({
      token: localStorage.getItem(tokenKey!),
      profile: localStorage.getItem(profileKey!),
    }),
    [ACCESS_TOKEN_STORAGE_KEY, PROFILE_STORAGE_KEY],
  );
}

/**
 * Makes the page's session older than a change that needs a recent sign-in allows (by its own
 * auth_time, re-signed by the server), as if the borrower had signed in long ago. The stale token.
 */
export async function makeSessionStale(page: Page, server: TestServer): Promise<string> {
  const { token } = await readPortalStorage(page);
  assert.ok(token, 'signed in');
  const stale = await signedInAgo(server, token, STEP_UP_MAX_AGE_SECONDS + 60);
  await page.evaluate(
    ([key, value]) => localStorage.setItem(key!, value!),
    [ACCESS_TOKEN_STORAGE_KEY, stale],
  );
  return stale;
}

/** Signs out as a borrower does: the account menu (the phone's menu on a narrow screen), then "Sign out". */
export async function signOutFromMenu(page: Page): Promise<void> {
  await page
    .getByTestId('app-header')
    .getByRole('button', { name: /account menu|^Menu$/ })
    .click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
}
