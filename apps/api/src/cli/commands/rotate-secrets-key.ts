import { operatorEndpoints } from '@customer-core/contracts';
import type { Command } from '../command.js';

export const rotateSecretsKey: Command = {
  name: 'rotate-secrets-key',
  summary: 'Seal every secret in the database with the first key of SECRETS_KEYS',
  help: `Usage: npm run cli -- rotate-secrets-key [--json]

Seals every secret the portal keeps in its database (authenticator apps' secrets, signing keys) again
with the first key of SECRETS_KEYS, so the keys after it can be dropped. Nothing stops working: the
secrets themselves stay the same.

Without downtime:
  1. Give every instance SECRETS_KEYS=old,new (the new key opens, the old one still seals).
  2. Then SECRETS_KEYS=new,old on every instance (the new key seals).
  3. Run this command.
  4. Then SECRETS_KEYS=new on every instance.

Options:
  --json   Print the portal's answer as JSON`,
  options: { json: { type: 'boolean' } },
  async run(values, { portal, print }) {
    const rotation = await portal.call(operatorEndpoints.secretsKeyRotations, {});
    if (values.json) return print(JSON.stringify(rotation, null, 2));
    print(
      `Every secret is now sealed with key ${rotation.activeKeyId} (${rotation.resealed} sealed again). ` +
        'Earlier keys can be removed from SECRETS_KEYS.',
    );
  },
};
