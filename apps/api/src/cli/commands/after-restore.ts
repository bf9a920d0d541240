import { failure } from '../cli-error.js';
import type { Command } from '../command.js';

export const afterRestore: Command = {
  name: 'after-restore',
  summary: 'After restoring a backup: new signing keys, every session ended',
  help: `Usage: npm run cli -- after-restore

Run once after restoring the portal's database from a backup, before the portal serves borrowers.
A restored database brings back what was undone since the backup: sessions signed out, keys retired.
Its keys may also have left with a copy of the backup. So this step makes a new key for signing access
tokens and deletes every earlier one (no token signed before verifies), cuts off every borrower's
tokens, ends every session of the bundled identity provider and deletes its keys for signing ID tokens
and cookies (it makes new ones when it next starts). Every borrower signs in again.

A step on the portal's database itself, not a call to a running portal: run it where the portal runs,
with its settings (DATABASE_URL or DATA_DIR, SECRETS_KEYS as the backed-up portal had them).
With the embedded database (no DATABASE_URL), stop the portal first.`,
  options: {},
  positionals: [],
  runsOn: 'database',
  async run(_values, { print, database }) {
    const steps = await database();
    try {
      const { rotation, borrowersSignedOut, identityProviderSessions, identityProviderKeySets } =
        await steps.afterRestore();
      print(`Access tokens are now signed with key ${rotation.activeKid}.`);
      if (rotation.retiredKids.length > 0) print(`Deleted earlier keys: ${rotation.retiredKids.join(', ')}.`);
      print(
        `Signed out every borrower (${borrowersSignedOut}); ended ${identityProviderSessions} identity-provider session${identityProviderSessions === 1 ? '' : 's'}.`,
      );
      if (identityProviderKeySets > 0)
        print(
          'Deleted the identity provider’s keys for ID tokens and cookies: it makes new ones when it next starts.',
        );
    } catch (error) {
      throw failure(`after-restore: ${(error as Error).message}`);
    } finally {
      await steps.close();
    }
  },
};
