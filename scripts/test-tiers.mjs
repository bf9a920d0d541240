// The test tiers, by the folders their files are in: unit tests need nothing running; API tests
// start real servers on PGlite (and PostgreSQL); browser tests drive Chromium against them.
import { readdirSync } from 'node:fs';
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

/**
 * The TypeScript files under the folders tests live in (packages, apps, e2e), their paths from `root`,
 * in path order; installed packages and build output left out.
 */
export function testRootSources(root) {
  return ['packages', 'apps', 'e2e']
    .flatMap((dir) =>
      readdirSync(path.join(root, dir), { recursive: true }).map((f) => path.join(dir, String(f))),
    )
    .filter(
      (f) =>
        /\.tsx?$/.test(f) && !f.split(path.sep).some((part) => part === 'node_modules' || part === 'dist'),
    )
    .sort((a, b) => a.localeCompare(b));
}
