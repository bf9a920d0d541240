// The test tiers, by the folders their files are in: unit tests need nothing running; API tests
// start real servers on PGlite (and PostgreSQL); browser tests drive Chromium against them.
import path from 'node:path';

export const TIERS = {
  unit: ['packages/contracts/', 'apps/web/'],
  api: ['apps/api/', 'apps/idp/', 'packages/database/'],
  e2e: ['e2e/'],
};

/** The tier of a test file, by its path from the repository's root. */
export function tierOf(file) {
  const posix = file.split(path.sep).join('/');
  return Object.keys(TIERS).find((tier) => TIERS[tier].some((prefix) => posix.startsWith(prefix)));
}
