import { operatorEndpoints, type SigningKeyRotationRequest } from '@customer-core/contracts';
import type { Command } from '../command.js';

export const rotateSigningKey: Command = {
  name: 'rotate-signing-key',
  summary: 'Start signing access tokens with a new key',
  help: `Usage: npm run cli -- rotate-signing-key [--retire-earlier-keys-now] [--json]

Creates a new key for signing borrowers' access tokens. Every instance of the portal signs with it
within a minute. Borrowers notice nothing: earlier keys keep verifying (they stay in the public keys)
until the tokens they signed have expired, and are then deleted.

Options:
  --retire-earlier-keys-now   After a key may have leaked: delete every earlier key now. Every
                              borrower is signed out (their tokens no longer verify) within a minute.
  --json                      Print the portal's answer as JSON`,
  options: { 'retire-earlier-keys-now': { type: 'boolean' }, json: { type: 'boolean' } },
  async run(values, { portal, print }) {
    const request: SigningKeyRotationRequest = {
      retireEarlierKeysNow: values['retire-earlier-keys-now'] === true,
    };
    const rotation = await portal.call(operatorEndpoints.signingKeyRotations, { body: request });
    if (values.json) return print(JSON.stringify(rotation, null, 2));
    print(`Access tokens are now signed with key ${rotation.activeKid}.`);
    const earlier = rotation.verifyingKids.filter((kid) => kid !== rotation.activeKid);
    print(
      earlier.length > 0
        ? `Earlier keys still verifying until their tokens expire: ${earlier.join(', ')}.`
        : 'No earlier key verifies any more.',
    );
    if (rotation.retiredKids.length > 0) print(`Deleted: ${rotation.retiredKids.join(', ')}.`);
  },
};
