import { routes } from '@customer-core/contracts';
import type { CDPSession } from 'playwright-core';
import { launchChromium } from './chromium.js';
import { DEMO_BORROWER } from './sign-in-flow.js';

// The sign-in route as a borrower's browser sees it: Debian's Chromium opens /auth/login on the
// bench's server and counts the bytes that arrive over the wire (bodies compressed as served; headers
// apart), from Chromium's own network events. Three moments:
//   form works   the interactive form has taken over (data-ready="true": fields editable, LOGIN enabled)
//   idle         nothing more fetched for a while before the borrower acts: all a visit costs if they
//                never sign in, and what the form did not need is listed by name
//   sign-in sent the borrower typed and pressed LOGIN, up to the password leaving for /api/v1/authn

export interface Fetched {
  url: string;
  type: string;
  /** The body as it came over the wire (compressed, as served). */
  bytes: number;
  /** The response's headers. */
  headerBytes: number;
  /** Content-Encoding: br, gzip, or none. */
  encoding: string;
}

export interface SignInPageWeight {
  /** Everything finished by each moment, in the order it finished. */
  formWorks: Fetched[];
  idle: Fetched[];
  signInSent: Fetched[];
}

const IDLE_MS = 1000;
const AUTHN_PATH = '/api/v1/authn';

export const scripts = (fetched: Fetched[]) => fetched.filter((f) => f.type === 'Script');
export const bytesOf = (fetched: Fetched[]) => fetched.reduce((sum, f) => sum + f.bytes, 0);
export const headerBytesOf = (fetched: Fetched[]) => fetched.reduce((sum, f) => sum + f.headerBytes, 0);

/** `locale`: the browser's language, which the portal follows on a first visit. */
export async function measureSignInPage(
  publicUrl: string,
  executablePath: string,
  locale: string,
): Promise<SignInPageWeight> {
  const browser = await launchChromium(executablePath);
  try {
    // A fresh profile: nothing cached, as on a borrower's first visit.
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const finished = await followNetwork(cdp);
    let lastActivity = Date.now();
    page.on('request', () => (lastActivity = Date.now()));
    page.on('requestfinished', () => (lastActivity = Date.now()));

    await page.goto(`${publicUrl}${routes.signIn.path}`);
    await page.locator('form[data-ready="true"]').waitFor({ timeout: 30_000 });
    const formWorks = [...finished];
    const settling = Date.now();
    while (Date.now() - lastActivity < IDLE_MS && Date.now() - settling < 10_000) {
      await page.waitForTimeout(100);
    }
    const idle = [...finished];

    // By the fields' ids, which are the same in every language.
    await page.locator('#sign-in-email').fill(DEMO_BORROWER.username);
    await page.locator('#sign-in-password').fill(DEMO_BORROWER.password);
    const authn = page.waitForRequest((request) => new URL(request.url()).pathname === AUTHN_PATH);
    await page.locator('form.sign-in-form button[type="submit"]').click();
    await authn;
    const signInSent = [...finished];
    await context.close();
    return { formWorks, idle, signInSent };
  } finally {
    await browser.close();
  }
}

/** Responses as they finish loading, with the bytes Chromium received for each. */
async function followNetwork(cdp: CDPSession): Promise<Fetched[]> {
  const finished: Fetched[] = [];
  const requests = new Map<string, Omit<Fetched, 'bytes'>>();
  cdp.on('Network.requestWillBeSent', (event) =>
    requests.set(event.requestId, {
      url: event.request.url,
      type: event.type ?? 'Other',
      headerBytes: 0,
      encoding: 'none',
    }),
  );
  // encodedDataLength: of the headers here, of headers and body once loading finished.
  cdp.on('Network.responseReceived', (event) => {
    const request = requests.get(event.requestId);
    if (!request) return;
    request.headerBytes = event.response.encodedDataLength;
    const headers = Object.entries(event.response.headers);
    request.encoding = headers.find(([name]) => name.toLowerCase() === 'content-encoding')?.[1] ?? 'none';
  });
  cdp.on('Network.loadingFinished', (event) => {
    const request = requests.get(event.requestId);
    if (request) {
      finished.push({ ...request, bytes: event.encodedDataLength - request.headerBytes });
    }
  });
  await cdp.send('Network.enable');
  return finished;
}
