export { freePort } from './free-port.js';
export { signInThroughIdp, type IdpTokens } from './idp-sign-in.js';
export { startTestServer, type TestServer, type TestServerOptions } from './test-server.js';
