import { Worker } from 'node:worker_threads';

// Times requests from a thread of its own, as a client on another machine would see them: an
// in-process client shares the server's event loop, so whatever the server does after answering
// (delivering mail, say) would delay reading the answer and be counted as if it were part of it.

const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { requests, pauseMs } = workerData;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
(async () => {
  const results = [];
  for (const { url, body, headers } of requests) {
    const started = performance.now();
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    await response.arrayBuffer();
    results.push({ status: response.status, ms: performance.now() - started });
    await sleep(pauseMs);
  }
  parentPort.postMessage(results);
})().catch((error) => parentPort.postMessage({ error: String(error) }));
`;

export interface TimedRequest {
  url: string;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * Sends the POSTs one after another, `pauseMs` apart (so each meets a quiet server), and returns each
 * one's status and time to the end of its body.
 */
export function timeRequests(
  requests: TimedRequest[],
  pauseMs: number,
): Promise<Array<{ status: number; ms: number }>> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(SOURCE, { eval: true, workerData: { requests, pauseMs } });
    worker.once('message', (message: Array<{ status: number; ms: number }> | { error: string }) => {
      void worker.terminate();
      if ('error' in message) reject(new Error(message.error));
      else resolve(message);
    });
    worker.once('error', reject);
  });
}
