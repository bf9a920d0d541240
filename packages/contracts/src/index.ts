export * from './access-token.js';
export * from './api.js';
export * from './credentials.js';
export * from './identity-provider-choice.js';
export * from './portal-config.js';
export * from './profile.js';
export * from './routes.js';
export * from './storage-keys.js';
