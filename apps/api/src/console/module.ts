import { auditedModule } from '../audit/recorded-calls.js';
import { routeModule } from '../http/route-module.js';
import { operatorCaller } from './operator-access.js';
import { consoleSessionRoutes } from './routes/session.js';
import { consoleSignInRoute } from './routes/sign-in.js';

/**
 * The staff console's own calls: signing in (a staff member's ID token for a console token), who is
 * signed in, signing out. What staff do there is the operators' API (operators/module.ts), which a
 * console token opens as far as its role allows. Sign-ins, refused ones too, and sign-outs are audited.
 */
export const consoleModule = auditedModule(routeModule([consoleSignInRoute, consoleSessionRoutes]), {
  callerOf: operatorCaller,
  reads: false,
  // The body is an ID token: a credential, never recorded.
  requestFields: false,
  reasons: false,
});
