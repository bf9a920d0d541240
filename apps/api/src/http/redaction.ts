import { routes } from '@customer-core/contracts';

// Apart from logging.ts, which loads pino and Fastify: the tracing bootstrap uses these before either loads.

// Query strings carry one-time tokens, authorization codes and session tokens: log their names, never their values.
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const names = [...new URLSearchParams(url.slice(q + 1)).keys()];
  return `${url.slice(0, q)}?${names.map((n) => `${encodeURIComponent(n)}=[redacted]`).join('&')}`;
}

/** The pages whose last path segment is a one-time token (e-mailed links), e.g. '/auth/password-reset'. */
export const TOKEN_PAGES = Object.values(routes)
  .map((route) => route.path)
  .filter((path) => path.endsWith('/:token'))
  .map((path) => path.slice(0, -'/:token'.length).toLowerCase());

/**
 * The path as a lenient router or browser may read it: percent-decoded (repeatedly), backslashes as
 * slashes, empty and dot segments resolved, lower case. Only for recognising token pages.
 */
function normalisedPath(path: string): string {
  let decoded = path;
  for (let round = 0; round < 5; round += 1) {
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      next = decoded.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
    if (next === decoded) break;
    decoded = next;
  }
  const segments: string[] = [];
  for (const segment of decoded.replaceAll('\\', '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`.toLowerCase();
}

/**
 * A request URL as the log may show it: query values dropped and, for a token page in any spelling
 * (`//auth/password-reset/…`, `/AUTH/…`, `/x/../auth/…`, encoded slashes), the page without its token.
 */
export function redactPath(url: string): string {
  const q = url.search(/[?#]/);
  const path = q === -1 ? url : url.slice(0, q);
  const rest = q === -1 ? '' : redactUrl(`?${url.slice(q + 1).split('#')[0]}`);
  const normalised = normalisedPath(path);
  const page = TOKEN_PAGES.find((prefix) => normalised.startsWith(`${prefix}/`));
  return page ? `${page}/[redacted]${rest}` : `${path}${rest}`;
}
