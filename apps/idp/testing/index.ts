export { TEST_PASSWORD_HASH_COST } from './password-hash-cost.js';
export { signingKeyReuse } from './signing-key-reuse.js';
export { quietProviderOptions } from './quiet-provider.js';
export { browserFetch, CookieJar } from './browser.js';
