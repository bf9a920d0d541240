import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { startTestServer } from '@customer-core/api/testing';

// A graceful stop (the server's close, as SIGTERM runs it) ends connections that carry no request:
// idle keep-alive ones, and ones a client opened ahead of need and never used (browsers and proxies
// do). Requests in flight are the grace period's to finish (scale-out.test.ts).

describe('stopping', () => {
  it('ends a connection a client opened and never used, without waiting out the grace period', async () => {
    const server = await startTestServer('pglite');
    const socket = connect(server.config.port, '127.0.0.1');
    await once(socket, 'connect');
    const ended = once(socket, 'close');
    // What the grace period ends with, once it runs out: every connection cut.
    const { server: http } = server.server.app;
    let cutAtGraceEnd = false;
    const cutAll = http.closeAllConnections.bind(http);
    http.closeAllConnections = () => {
      cutAtGraceEnd = true;
      cutAll();
    };
    await server.close();
    await ended;
    assert.equal(cutAtGraceEnd, false, 'the unused connection was ended, not left to the grace period');
    assert.equal(socket.bytesRead, 0, 'it was never answered: no request was on it');
  });
});
