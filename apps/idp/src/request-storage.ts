import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * A store per provider request, switched on only while one runs. On Node 20 an AsyncLocalStorage in
 * use hooks the creation of every promise in the process to copy its store onto it, for the API's
 * requests as well, which read none of these stores: about a tenth of a token validation's CPU (bench:
 * POST validate before and after). So it is turned off each time the last request using it ends.
 * Work a request leaves running after it has ended sees no store.
 */
export class RequestStorage<T> {
  private readonly storage = new AsyncLocalStorage<T>();
  private running = 0;

  async run<R>(store: T, request: () => Promise<R>): Promise<R> {
    this.running += 1;
    try {
      return await this.storage.run(store, request);
    } finally {
      this.running -= 1;
      if (this.running === 0) this.storage.disable();
    }
  }

  getStore(): T | undefined {
    return this.storage.getStore();
  }
}
