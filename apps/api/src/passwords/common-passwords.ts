import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// The blocklist of common passwords (ASVS 2.1.7, NIST SP 800-63B 5.1.1.2), shipped with the project:
// the ranked list of the most common passwords of the maintained zxcvbn-ts project
// (@zxcvbn-ts/language-common, 'passwords-common': about 49,000 entries, lower case, most common
// first), which zxcvbn derives from leaked-password corpora. Nothing is looked up over the network.
// Read as the package's JSON: its module holds the same list compressed into JavaScript, and parsing
// and unpacking that cost ~9 MB more in a bare process, and the server ~2 MB more after start-up.

export const COMMON_PASSWORD_MESSAGE = 'This password is too common. Choose another.';

/** How many of the most common entries also count with a few digits or symbols added (Password1!, Summer2024). */
const DECORATED_BASES = 10_000;
const DECORATION = /[\d!@#$%^&*()._\-+=?~]{1,6}$/;

// Built when the module loads, at start-up: the first password change does not pay for it.
const RANKED = rankedList();
const ALL = new Set(RANKED);
const BASES = new Set(RANKED.slice(0, DECORATED_BASES));

/**
 * True for a password on the list, whatever its case, and for one of the most common entries with up
 * to six digits or symbols added at the end: the first guesses of any attacker with the same list.
 */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  if (ALL.has(lower)) return true;
  const base = lower.replace(DECORATION, '');
  return base !== lower && BASES.has(base);
}

function rankedList(): string[] {
  const file = createRequire(import.meta.url).resolve('@zxcvbn-ts/language-common/src/passwords.json');
  const list: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(list) || !list.every((entry) => typeof entry === 'string')) {
    throw new Error(`${file} is not a list of passwords`);
  }
  return list;
}
