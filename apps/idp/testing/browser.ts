// A browser as the sign-in tests need one: its cookies, kept from Set-Cookie and sent back, and its
// requests, whose redirects it reads rather than follows.

/** Cookies of one browser, whatever host name the test used. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  store(response: Response): void {
    this.keep(response.headers.getSetCookie());
  }

  /** What Set-Cookie lines set is kept, what they expire forgotten (an answer fetch did not read). */
  keep(setCookieLines: readonly string[]): void {
    for (const line of setCookieLines) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (!value || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  has(name: string): boolean {
    return this.cookies.has(name);
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** Another browser holding the same cookies as this one does now. */
  copy(): CookieJar {
    const copy = new CookieJar();
    for (const [name, value] of this.cookies) copy.cookies.set(name, value);
    return copy;
  }
}

/** A request of `jar`'s browser: its cookies sent, the ones it is given kept, a redirect not followed. */
export async function browserFetch(
  jar: CookieJar,
  url: string | URL,
  init: RequestInit = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  const cookie = jar.header();
  if (cookie) headers.set('cookie', cookie);
  const response = await fetch(url, { ...init, headers, redirect: 'manual' });
  jar.store(response);
  return response;
}
