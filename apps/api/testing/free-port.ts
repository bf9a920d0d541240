// Claimed across test files running side by side; defined beside the test databases, which the IdP's
// tests use as well.
export { freePort } from '@customer-core/database/testing';
