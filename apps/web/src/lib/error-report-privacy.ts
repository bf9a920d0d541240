import { routes } from '@customer-core/contracts';

// What the error-reporting service must not receive: the one-time tokens some addresses carry
// (password reset, registration, magic link, e-mail verification). Their segment becomes ':token'.

const TOKEN_SEGMENT = /:token\b/;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const TOKEN_ROUTES: RegExp[] = Object.values(routes)
  .map((route) => route.path as string)
  .filter((path) => TOKEN_SEGMENT.test(path))
  .map((path) => {
    const [before = '', after = ''] = path.split(TOKEN_SEGMENT);
    return new RegExp(`(${escapeRegExp(before)})[^/?#]+(${escapeRegExp(after)})`, 'g');
  });

/** The address with every one-time token replaced by ':token'. */
export function scrubUrl(url: string): string {
  return TOKEN_ROUTES.reduce((scrubbed, pattern) => scrubbed.replace(pattern, '$1:token$2'), url);
}

/** An allow-list entry for errors thrown by scripts of `origin` (its own pages, not look-alike hosts). */
export function originPattern(origin: string): RegExp | null {
  try {
    const { origin: normalized } = new URL(origin);
    return normalized === 'null' ? null : new RegExp(`^${escapeRegExp(normalized)}(?:[/?#]|$)`);
  } catch {
    return null;
  }
}
