import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { routes } from '@customer-core/contracts';
import { startTestServer, type TestServer } from '../testing/index.js';
import { builtPortal, type BuiltPortal } from './support/built-portal.js';

/** The raw text written to the log, with a way to wait for a line. */
function textCollector() {
  let text = '';
  const waiting: Array<{ match: RegExp; resolve: (line: string) => void }> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      text += chunk.toString('utf8');
      for (const waiter of [...waiting]) {
        const line = text.split('\n').find((l) => waiter.match.test(l));
        if (line !== undefined) {
          waiting.splice(waiting.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
      callback();
    },
  });
  return {
    stream,
    text: () => text,
    lineMatching: (match: RegExp) =>
      new Promise<string>((resolve) => {
        const line = text.split('\n').find((l) => match.test(l));
        if (line !== undefined) resolve(line);
        else waiting.push({ match, resolve });
      }),
  };
}

describe('development log lines', () => {
  let server: TestServer;
  const log = textCollector();

  // The page asked for is the portal's: served from a folder laid out as its build's.
  let portal: BuiltPortal;

  before(async () => {
    portal = builtPortal();
    server = await startTestServer(
      'pglite',
      { LOG_FORMAT: 'pretty', LOG_LEVEL: 'info' },
      { logStream: log.stream, portalDir: portal.dir },
    );
  });
  after(async () => {
    await server?.close();
    portal?.remove();
  });

  it('are one readable line per request, without tokens or credentials', async () => {
    const token = `CANARY${randomBytes(12).toString('hex')}`;
    const page = routes.passwordReset.href({ token });
    const response = await fetch(`${server.baseUrl}${page}?code=${token}`, {
      headers: { authorization: `Bearer ${token}`, cookie: `session=${token}` },
    });
    assert.equal(response.status, 200);
    await response.arrayBuffer();

    const line = await log.lineMatching(/\/auth\/password-reset\//);
    assert.match(
      line,
      /^\[\d\d:\d\d:\d\d\] INFO: GET \/auth\/password-reset\/\[redacted\]\?code=\[redacted\] 200 \d+ ms$/,
    );
    const text = log.text();
    assert.ok(!text.includes(token), 'the token is in no log line');
    assert.ok(!text.includes('"level"'), 'no JSON records');
    assert.equal(text.split('\n').filter((l) => l.includes('/auth/password-reset/')).length, 1);
  });

  it('leave out the static files served, and keep pages, API calls and a static file that failed', async () => {
    for (const path of [portal.entry, '/favicon.svg', '/assets/missing-0000.js', '/api/borrower/loans']) {
      const response = await fetch(`${server.baseUrl}${path}`);
      await response.arrayBuffer();
    }
    // The page last: once its line is written, so are those of the requests before it.
    await (await fetch(`${server.baseUrl}${routes.signIn.path}`)).arrayBuffer();
    await log.lineMatching(new RegExp(`GET ${routes.signIn.path} 200`));
    const text = log.text();
    assert.match(text, /INFO: GET \/api\/borrower\/loans 401 \d+ ms/);
    assert.match(text, /INFO: GET \/assets\/missing-0000\.js 404 \d+ ms/);
    assert.ok(!text.includes(portal.entry), 'no line for a hashed asset');
    assert.ok(!text.includes('/favicon.svg'), 'no line for the favicon');
  });
});
