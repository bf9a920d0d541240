import http from 'node:http';

// The load generator shares the 2 cores with the server it measures, so its own cost is taken from the
// server's. Chains of calls that autocannon cannot make (a refresh chain, the 4-step sign-in) go through
// this, ours and the peer's alike: with the global fetch (web streams, a Request and a Response per
// call) the sign-in flow's load generator spent 8.4 ms of CPU per sign-in, with this 4.4 ms
// (bench/README.md).

const agent = new http.Agent({ keepAlive: true });

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export interface Call {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Gives up after this long (ms): a stalled server fails the call instead of the whole run. */
  timeout?: number;
}

/** One HTTP/1.1 call on a kept-alive socket; the whole answer, as text. */
export function send(url: string | URL, { method = 'GET', headers = {}, body, timeout = 10_000 }: Call = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const request = http.request(
      url,
      {
        method,
        agent,
        timeout,
        headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeout} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}
