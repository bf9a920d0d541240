import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../testing/index.js';

// The example configuration in deploy/nginx, run by a real nginx (NGINX_PATH, which the test command
// provides) as this user, on loopback: only its addresses, ports and certificate are swapped, each
// where the example has it, so what is tested is what operators copy.

const root = path.resolve(import.meta.dirname, '../../../..');
export const EXAMPLE_CONFIG = path.join(root, 'deploy/nginx/customer-core.conf');

export interface NginxProxy {
  /** The public origin, e.g. https://127.0.0.1:41234 */
  url: string;
  /** The certificate clients trust for it (self-signed, for 127.0.0.1). */
  ca: string;
  /** What nginx has logged so far (its error log). */
  log(): string;
  close(): Promise<void>;
}

/** The example, its two instances at `upstreamPorts` on 127.0.0.1, served over TLS on a free port. */
export async function startNginx(upstreamPorts: [number, number]): Promise<NginxProxy> {
  const binary = process.env.NGINX_PATH;
  if (!binary) throw new Error('NGINX_PATH is not set: run the tests with scripts/run-tests.mjs');
  const dir = await mkdtemp(path.join(tmpdir(), 'nginx-'));
  const [port, redirectPort] = [await freePort(), await freePort()];
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  await promisify(execFile)('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    key,
    '-out',
    cert,
  ]);
  const site = swapped(await readFile(EXAMPLE_CONFIG, 'utf8'), {
    'server 10.0.0.11:8080': `server 127.0.0.1:${upstreamPorts[0]}`,
    'server 10.0.0.12:8080': `server 127.0.0.1:${upstreamPorts[1]}`,
    'listen 443 ssl http2;': `listen 127.0.0.1:${port} ssl http2;`,
    'listen 80;': `listen 127.0.0.1:${redirectPort};`,
    '/etc/ssl/certs/portal.lender.example.pem': cert,
    '/etc/ssl/private/portal.lender.example.key': key,
  });
  await writeFile(path.join(dir, 'customer-core.conf'), site);
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) await mkdir(path.join(dir, temp));
  // What a distribution's nginx.conf gives around the site, with every path in the temporary folder.
  await writeFile(
    path.join(dir, 'nginx.conf'),
    [
      // As root, nginx would hand its workers to nobody, who cannot write here.
      ...(process.getuid?.() === 0 ? [`user ${userInfo().username};`] : []),
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      'error_log stderr notice;',
      'events { worker_connections 512; }',
      'http {',
      '  access_log off;',
      ...['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
        (temp) => `  ${temp === 'body' ? 'client_body' : temp}_temp_path ${dir}/${temp};`,
      ),
      `  include ${dir}/customer-core.conf;`,
      '}',
      '',
    ].join('\n'),
  );
  let log = '';
  const child = spawn(
    binary,
    ['-p', dir, '-e', 'stderr', '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // It logs to standard error; once a worker runs, it serves.
  await new Promise<void>((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      log += chunk;
      if (log.includes('start worker process')) resolve();
    });
    void exited.then(() => reject(new Error(`nginx ended while starting:\n${log}`)));
  });
  return {
    url: `https://127.0.0.1:${port}`,
    ca: await readFile(cert, 'utf8'),
    log: () => log,
    async close() {
      process.off('exit', kill);
      child.kill('SIGQUIT'); // graceful: workers finish their requests
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** `text` with each `from` replaced; each must be there exactly once (the example has not drifted). */
function swapped(text: string, replacements: Record<string, string>): string {
  let result = text;
  for (const [from, to] of Object.entries(replacements)) {
    const count = result.split(from).length - 1;
    if (count !== 1) throw new Error(`${EXAMPLE_CONFIG} has '${from}' ${count} times, not once`);
    result = result.replace(from, to);
  }
  return result;
}
