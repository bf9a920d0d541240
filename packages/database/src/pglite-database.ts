import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import type { PostgresPool } from 'kysely';
import { createPGlitePool } from './pglite-pool.js';

// The embedded database: loaded by openDatabase only for a PGlite location (never on PostgreSQL).

export type PgliteLocation = { kind: 'pglite'; dataDir?: string; templateFile?: string; instance?: PGlite };

/** The pool a database at this location queries through: over its own instance, or one it borrows. */
export function pglitePool(location: PgliteLocation): PostgresPool {
  return location.instance
    ? createPGlitePool(location.instance, { borrowed: true })
    : createPGlitePool(openPglite(location));
}

/**
 * Creates a PGlite data folder that does not exist yet, in a worker thread that then ends.
 *
 * initdb grows PGlite's WebAssembly memory to ~600 MB, and WebAssembly memory never shrinks: created
 * by the server's own instance, that memory would stay with the portal for as long as it runs. The
 * worker's memory is released when it ends, and the server opens the finished folder at its usual size.
 */
export async function createPgliteDataDir(dataDir: string): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  if (existsSync(`${dataDir}/PG_VERSION`)) return;
  const worker = new Worker(
    `const { workerData: w } = require('node:worker_threads');
     import(w.module).then(async ({ PGlite }) => {
       const pglite = new PGlite({ dataDir: w.dataDir, startParams: w.startParams });
       await pglite.waitReady;
       await pglite.close();
     });`,
    {
      eval: true,
      workerData: {
        module: import.meta.resolve('@electric-sql/pglite'),
        dataDir,
        startParams: PGLITE_START_PARAMS,
      },
    },
  );
  const [exitCode] = (await once(worker, 'exit')) as [number];
  if (exitCode !== 0 || !existsSync(`${dataDir}/PG_VERSION`))
    throw new Error(`Could not create the embedded database in ${dataDir} (exit code ${exitCode}).`);
}

/** A new embedded instance at the location (in its data folder, from its template, or empty in memory). */
export function openPglite(location: PgliteLocation): PGlite {
  if (location.dataDir) mkdirSync(location.dataDir, { recursive: true });
  return new PGlite({
    startParams: PGLITE_START_PARAMS,
    dataDir: location.dataDir,
    loadDataDir: location.templateFile ? templateData(location.templateFile) : undefined,
  });
}

const templates = new Map<string, Blob>();

/**
 * A template's bytes, read once per process. PGlite asks only for `arrayBuffer()`, and Node 20's own
 * Blob hands a 40 MB one over in a loop of small reads and copies: over a third of the CPU that opening
 * a test database took. So PGlite gets the bytes as they are.
 */
function templateData(file: string): Blob {
  let template = templates.get(file);
  if (!template) {
    const bytes = readFileSync(file);
    // A file this large is read into an ArrayBuffer of its own; a small one would share node's pool.
    const buffer =
      bytes.byteLength === bytes.buffer.byteLength
        ? bytes.buffer
        : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    template = { size: buffer.byteLength, type: '', arrayBuffer: () => Promise.resolve(buffer) } as Blob;
    templates.set(file, template);
  }
  return template;
}

/**
 * PGlite runs PostgreSQL's defaults, whose 128 MB of shared buffers it allocates and touches at
 * start-up: most of the embedded portal's memory. The portal's data is small and the files stay in the
 * operating system's cache, so 32 MB loses nothing measurable and saves ~130 MB of RSS.
 */
const PGLITE_START_PARAMS = [
  ...PGlite.defaultStartParams,
  '-c',
  'shared_buffers=32MB',
  '-c',
  'maintenance_work_mem=8MB',
];
