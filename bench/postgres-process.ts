import { readFileSync } from 'node:fs';
import pg from 'pg';

/**
 * The process id of the PostgreSQL server behind `url` (its postmaster), when it runs on this machine
 * (its backend's process is then visible here); undefined otherwise. Its CPU is then sampled apart from
 * the rest of the machine's.
 */
export async function localPostgresPid(url: string | undefined): Promise<number | undefined> {
  if (!url) return undefined;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    const status = readFileSync(`/proc/${rows[0]!.pid}/status`, 'utf8');
    const parent = /^PPid:\s+(\d+)/m.exec(status)?.[1];
    return parent === undefined ? undefined : Number(parent);
  } catch {
    return undefined; // another machine's, or not Linux
  } finally {
    await client.end();
  }
}
