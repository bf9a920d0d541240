import { EventEmitter, once } from 'node:events';
import { Writable } from 'node:stream';
import type { Kysely } from 'kysely';
import { openDatabase } from '@customer-core/database';
import {
  createTestDatabase,
  type TestDatabase,
  type TestDatabaseKind,
} from '@customer-core/database/testing';
import { apiMigrations } from '../../src/db/migrations.js';
import type { ApiDatabase } from '../../src/db/schema.js';
import type { MailLogger } from '../../src/mail/index.js';

/** A fresh, migrated API database; `another()` opens a second connection pool on it (another instance). */
export async function mailTestDatabase(kind: TestDatabaseKind) {
  const database: TestDatabase = await createTestDatabase(kind, { api: apiMigrations });
  const pools: Array<Kysely<ApiDatabase>> = [];
  const open = () => {
    const db = openDatabase<ApiDatabase>(database.location);
    pools.push(db);
    return db;
  };
  const db = open();
  return {
    db,
    another: open,
    async close() {
      for (const pool of pools) await pool.destroy();
      await database.drop(); // waits for the pools' closing sockets
    },
  };
}

export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  msg: string;
  [field: string]: unknown;
}

/** A logger that keeps what it is told. */
export function recordingLogger(): MailLogger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at =
    (level: LogLine['level']) =>
    (obj: object, msg: string): void => {
      lines.push({ ...(JSON.parse(JSON.stringify(obj)) as object), level, msg });
    };
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** A stream for the server's pino logger: the JSON lines it wrote. */
export function logCollector() {
  const lines: Array<Record<string, unknown>> = [];
  const written = new EventEmitter();
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      written.emit('lines');
      callback();
    },
  });
  return {
    stream,
    lines,
    text: () => lines.map((l) => JSON.stringify(l)).join('\n'),
    /** Resolves when the next lines are written (for untilAfter). */
    afterLines: () => once(written, 'lines'),
  };
}
