import type { Middleware } from 'koa';
import { isConnectionLoss } from '@customer-core/database';
import { RequestStorage } from './request-storage.js';

// oidc-provider sometimes reports a lost database connection as another error: when saving the
// session fails, its own clean-up then throws "persist can only be called on previously persisted
// Sessions" in place of the cause. So the adapter notes, per request, that the database went away,
// and the request's failure is answered 503 (retry) rather than 500.

const requests = new RequestStorage<{ databaseLost: boolean }>();

/** Middleware of the provider: gives each request its own note. */
export const trackDatabaseLoss: Middleware = (_ctx, next) => requests.run({ databaseLost: false }, next);

/** The adapter's catch: notes a lost connection for the request in progress, and rethrows. */
export function noteDatabaseError(error: unknown): never {
  const request = requests.getStore();
  if (request && isConnectionLoss(error)) request.databaseLost = true;
  throw error;
}

/** Did this failure come from a lost database connection, directly or during the same request? */
export const failedForDatabaseLoss = (error: unknown) =>
  isConnectionLoss(error) || requests.getStore()?.databaseLost === true;
