import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** An event as the receiver processed it (once per webhook-id). */
export interface ReceivedEvent {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/**
 * The lender's side of webhooks, as a lender would write it: each message's signature checked with the
 * Standard Webhooks library (not the portal's code), each webhook-id processed once (a retry or a
 * replay is acknowledged and dropped), and answers the test chooses (a 500 for the first attempt at an
 * event type; always 500 at /down).
 */
export async function startWebhookReceiver() {
  let secret = '';
  const processed = new Map<string, ReceivedEvent>();
  const attempts = new Map<string, number>();
  const failFirst = new Set<string>();
  let refusedSignatures = 0;
  let downHits = 0;
  const waiters: Array<() => void> = [];

  const bodyOf = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };

  const server = createServer((request, response) => {
    void (async () => {
      const body = await bodyOf(request);
      if (request.url === '/down') {
        downHits += 1;
        response.writeHead(500).end('maintenance');
      } else {
        let event: { type: string; timestamp: string; data: Record<string, unknown> };
        try {
          event = new Webhook(secret).verify(body, {
            'webhook-id': String(request.headers['webhook-id']),
            'webhook-timestamp': String(request.headers['webhook-timestamp']),
            'webhook-signature': String(request.headers['webhook-signature']),
          }) as typeof event;
        } catch {
          refusedSignatures += 1;
          response.writeHead(401).end();
          return;
        }
        const id = String(request.headers['webhook-id']);
        const attempt = (attempts.get(id) ?? 0) + 1;
        attempts.set(id, attempt);
        if (attempt === 1 && failFirst.has(event.type)) response.writeHead(500).end('try again');
        else {
          if (!processed.has(id)) processed.set(id, { id, ...event });
          response.writeHead(204).end();
        }
      }
      for (const wake of waiters.splice(0)) wake();
    })();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/events`,
    downUrl: `http://127.0.0.1:${port}/down`,
    useSecret: (value: string) => void (secret = value),
    failFirstAttemptOf: (type: string) => void failFirst.add(type),
    processed,
    attempts,
    refusedSignatures: () => refusedSignatures,
    downHits: () => downHits,
    /**
     * Resolves once `condition` holds, checked after each message the receiver handles; fails at the
     * first message whose signature does not verify (no test expects one).
     */
    async until(condition: () => boolean): Promise<void> {
      for (;;) {
        if (refusedSignatures > 0)
          throw new Error(`${refusedSignatures} message(s) failed signature verification`);
        if (condition()) return;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
