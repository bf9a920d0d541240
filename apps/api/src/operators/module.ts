import { routeModule } from '../http/route-module.js';
import { operatorActivityRoute } from './routes/activity.js';
import { operatorBorrowerRoutes } from './routes/borrowers.js';
import { operatorSecretsKeyRoutes } from './routes/secrets-key.js';
import { operatorSessionRoutes } from './routes/sessions.js';
import { operatorSigningKeyRoutes } from './routes/signing-keys.js';

/**
 * Operators' calls (service credential, driven by `npm run cli`): the borrowers, their sessions and
 * activity, the signing key and the key that seals the database's secrets. The work is the other modules' services; these routes only answer.
 */
export const operatorsModule = routeModule([
  operatorBorrowerRoutes,
  operatorSessionRoutes,
  operatorActivityRoute,
  operatorSigningKeyRoutes,
  operatorSecretsKeyRoutes,
]);
