export { keepLastLines } from './child-output.js';
export { freePort } from './free-port.js';
export {
  completeSignInWithSessionToken,
  idpBrowser,
  type IdpBrowser,
  redeemCode,
  redirectSignInRequest,
  signInThroughIdp,
  silentSignInRequest,
  type IdpCall,
  type IdpTokens,
} from './idp-sign-in.js';
export { mintSession, type MintedSession } from './minted-session.js';
export {
  runningTestServer,
  startTestServer,
  TEST_SECRETS_KEYS,
  TEST_ACH_SETTINGS,
  type TestServer,
  type TestServerOptions,
} from './test-server.js';
export { inbox, waitForMail, type MailboxMessage } from './dev-mailbox.js';
export { untilAfter } from './until-after.js';
export { startTestOrg, TEST_ORG_CLIENT_ID, type TestOrg } from './test-org.js';
export { asPasswordSignIn, signedInAgo } from './signed-in-ago.js';
export { addBorrower, borrowerOfIdentity } from './borrowers.js';
export { parsePrometheusText, sampleValue, scrape, type Sample } from './prometheus-text.js';
export { startPrometheus, type RunningPrometheus } from './prometheus-server.js';
/** The browser's device cookie, as the server names it (what a test or the bench sends back). */
export { DEVICE_COOKIE } from '../src/http/device-cookie.js';
export { STAFF_PASSWORD, staffIdToken } from './staff-sign-in.js';
export {
  autopayBody,
  microDepositsIn,
  parsedNachaFile,
  paymentBody,
  runAndExport,
  TEST_HOLDER,
  TEST_ROUTING,
  verifiedBankAccount,
} from './payments.js';
