import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setPageUrl } from './dom.ts';

// The API a component test's page calls: a real local HTTP server that answers each call as the test
// says (by method and path) and records what it was sent. The page moves to its origin, so that the
// portal's calls by path reach it.

export interface Answer {
  status: number;
  /** Sent as JSON; a string as it is (e.g. a proxy's HTML page). */
  body?: unknown;
}
/** By "METHOD /path": an answer, or one made from what the call sent. */
export type Answers = Record<string, Answer | ((sent: unknown) => Answer)>;

export interface TestApi {
  /** Every call, in order: its method, path and JSON body. */
  calls: Array<{ method: string; path: string; body: unknown }>;
  close(): Promise<void>;
}

export async function serveApi(answers: Answers): Promise<TestApi> {
  const calls: TestApi['calls'] = [];
  const reply = (request: IncomingMessage, response: ServerResponse, text: string) => {
    const path = (request.url ?? '').split('?')[0]!;
    const body: unknown = text ? JSON.parse(text) : undefined;
    calls.push({ method: request.method ?? '', path, body });
    const given = answers[`${request.method} ${path}`];
    const { status, body: answer } = typeof given === 'function' ? given(body) : (given ?? { status: 404 });
    const json = typeof answer !== 'string';
    response.writeHead(status, { 'Content-Type': json ? 'application/json' : 'text/html' });
    response.end(json ? JSON.stringify(answer ?? { error: 'not_found', message: 'Not found.' }) : answer);
  };
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => reply(request, response, text));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  setPageUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  return {
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        // The page's kept-alive connections too: closed, the API answers nothing more.
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
