import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

/**
 * Creates a PGlite data folder that does not exist yet, in a worker thread that then ends.
 *
 * initdb grows PGlite's WebAssembly memory to ~600 MB, and WebAssembly memory never shrinks: created
 * by the server's own instance, that memory would stay with the portal for as long as it runs. The
 * worker's memory is released when it ends, and the server opens the finished folder at its usual size.
 */
export async function createPgliteDataDir(dataDir: string, startParams: string[]): Promise<void> {
  if (existsSync(`${dataDir}/PG_VERSION`)) return;
  const worker = new Worker(
    `const { workerData: w } = require('node:worker_threads');
     import(w.module).then(async ({ PGlite }) => {
       const pglite = new PGlite({ dataDir: w.dataDir, startParams: w.startParams });
       await pglite.waitReady;
       await pglite.close();
     });`,
    { eval: true, workerData: { module: import.meta.resolve('@electric-sql/pglite'), dataDir, startParams } },
  );
  const [exitCode] = (await once(worker, 'exit')) as [number];
  if (exitCode !== 0 || !existsSync(`${dataDir}/PG_VERSION`))
    throw new Error(`Could not create the embedded database in ${dataDir} (exit code ${exitCode}).`);
}
