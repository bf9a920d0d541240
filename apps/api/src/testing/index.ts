export { freePort } from './free-port.js';
export { signInThroughIdp, type IdpTokens } from './idp-sign-in.js';
export { startTestServer, type TestServer } from './test-server.js';
