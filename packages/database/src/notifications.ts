import pg from 'pg';
import { postgresTimeouts } from './database.js';

export interface NotificationHandlers {
  onNotification(payload: string): void;
  /**
   * Listening has (re)started: whatever was sent while it was not is lost, so the caller reloads what
   * it keeps from the tables. Notifications that arrive meanwhile are delivered after it.
   */
  onListening(): Promise<void>;
  /** The connection is gone; a new one is tried shortly. */
  onLost(error?: Error): void;
}

export interface NotificationListener {
  close(): Promise<void>;
}

const RECONNECT_DELAY_MS = 1000;

/**
 * LISTENs on a PostgreSQL channel with a connection of its own, so that every instance sharing the
 * database hears what any one of them NOTIFYs. A lost connection is replaced, and the caller told.
 */
export function listenForNotifications(
  url: string,
  channel: string,
  handlers: NotificationHandlers,
): NotificationListener {
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const lost = (current: pg.Client, error?: Error) => {
    if (client !== current) return; // already handled
    client = undefined;
    void current.end().catch(() => {});
    handlers.onLost(error);
    if (!closed) retry = setTimeout(() => void connect(), RECONNECT_DELAY_MS);
  };

  async function connect(): Promise<void> {
    const { connectionTimeoutMillis, keepAlive } = postgresTimeouts;
    const current = new pg.Client({ connectionString: url, connectionTimeoutMillis, keepAlive });
    client = current;
    current.on('error', (error) => lost(current, error));
    current.on('end', () => lost(current));
    current.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined)
        handlers.onNotification(message.payload);
    });
    try {
      await current.connect();
      await current.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      await handlers.onListening();
    } catch (error) {
      lost(current, error as Error);
    }
  }

  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}
