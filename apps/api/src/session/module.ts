import { routeModule } from '../http/route-module.js';
import { logoutRoute } from './routes/logout.js';
import { lookupTokenRoutes } from './routes/lookup-token.js';
import { profileRoute } from './routes/profile.js';
import { publicKeysRoute } from './routes/public-keys.js';
import { tokenExchangeRoute } from './routes/token-exchange.js';
import { tokenRefreshRoute } from './routes/token-refresh.js';
import { validateRoute } from './routes/validate.js';

/** Sign-in sessions: token exchange and refresh, validate, sign-out, profile, public keys, lookup tokens. */
export const sessionModule = routeModule([
  tokenExchangeRoute,
  tokenRefreshRoute,
  validateRoute,
  logoutRoute,
  profileRoute,
  publicKeysRoute,
  lookupTokenRoutes,
]);
