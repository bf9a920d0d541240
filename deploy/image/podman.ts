// Podman as the image check drives it: the tools installed where missing, the run options this
// machine's container runtime accepts, and a base image made from a Debian root where no image
// registry is reachable.
import { execFile, spawn } from 'node:child_process';
import {
  cpSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Podman's own flags (before the command) and those a `run` or `build` takes. */
export interface PodmanOptions {
  global: string[];
  container: string[];
}

/** Runs podman, its output returned; a failure throws with what it printed. */
export async function podman(args: string[]): Promise<string> {
  try {
    const { stdout } = await run('podman', args, { maxBuffer: 64 * 1024 * 1024 });
    return stdout.trim();
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`podman ${args.join(' ')} failed:\n${stderr || stdout || String(error)}`, {
      cause: error,
    });
  }
}

/** Podman's exit status and output, a failure not thrown. */
export async function podmanStatus(args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run('podman', args, { maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const { code, stdout = '', stderr = '' } = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof code === 'number' ? code : 1, output: stdout + stderr };
  }
}

/**
 * A long command (debootstrap, podman build) with its output in `log`; `onLine` sees each line as it
 * comes, for progress.
 */
export function runLogged(
  command: string,
  args: string[],
  log: string[],
  onLine: (line: string) => void = () => {},
) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let partial = '';
    const take = (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        log.push(line);
        onLine(line);
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', reject);
    child.on('close', (code) => {
      if (partial) log.push(partial);
      if (code === 0) resolve();
      else
        reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${log.slice(-40).join('\n')}`));
    });
  });
}

const onPath = async (command: string) =>
  run('sh', ['-c', `command -v ${command}`]).then(
    () => true,
    () => false,
  );

/**
 * podman, debootstrap (for the base image) and runc (where crun cannot start a container here) from
 * Debian's packages, installed when missing and this is root with apt-get; else a message naming them.
 */
export async function ensureTools(needed: string[]): Promise<void> {
  const missing: string[] = [];
  for (const command of needed) if (!(await onPath(command))) missing.push(command);
  if (missing.length === 0) return;
  const install = `apt-get install -y ${missing.join(' ')}`;
  if (process.getuid?.() !== 0 || !(await onPath('apt-get')))
    throw new Error(`The image check needs ${missing.join(', ')}: run '${install}' as root, then again.`);
  console.log(`Installing Debian's ${missing.join(', ')} with apt-get.`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update', '-qq'], { env });
  await run('apt-get', ['install', '-y', '-qq', ...missing], { env, maxBuffer: 64 * 1024 * 1024 });
}

/** This process's hard limit of a resource, from /proc/self/limits. */
function hardLimit(name: string): string | undefined {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(name));
  return line?.slice(name.length).trim().split(/\s+/)[1];
}

/**
 * The first set of options with which a container starts here. Podman's defaults first. In a
 * container without CAP_SYS_RESOURCE the defaults ask for more open files and processes than the
 * runtime may grant (EPERM from setrlimit): then the limits this process has, where podman has not
 * lowered them for itself (it holds RLIMIT_NPROC to 32768). crun refuses a cgroup v1 + v2 hybrid with
 * controllers on v2 ("cgroups in hybrid mode not supported"); runc starts there.
 */
export async function runtimeOptions(image: string): Promise<PodmanOptions> {
  const files = hardLimit('Max open files') ?? '1024';
  const processes = hardLimit('Max processes') ?? '32768';
  const ulimits = (nproc: string) => [
    '--ulimit',
    `nofile=${files}:${files}`,
    '--ulimit',
    `nproc=${nproc}:${nproc}`,
  ];
  const candidates: PodmanOptions[] = [
    { global: [], container: [] },
    { global: [], container: ulimits(processes) },
    { global: [], container: ulimits('32768') },
    { global: ['--runtime', 'runc'], container: ulimits(processes) },
    { global: ['--runtime', 'runc'], container: ulimits('32768') },
  ];
  const refusals: string[] = [];
  for (const options of candidates) {
    if (options.global.includes('runc')) await ensureTools(['runc']);
    const probe = await podmanStatus([
      ...options.global,
      'run',
      '--rm',
      '--network',
      'host',
      ...options.container,
      image,
      'true',
    ]);
    if (probe.code === 0) return options;
    refusals.push(
      `${[...options.global, ...options.container].join(' ') || 'defaults'}: ${lastError(probe.output)}`,
    );
  }
  throw new Error(`No container starts here:\n  ${refusals.join('\n  ')}`);
}

const lastError = (output: string) =>
  output
    .split('\n')
    .filter((l) => l.startsWith('Error'))
    .pop() ?? output.trim().split('\n').pop();

/**
 * A base image like node:20-bookworm-slim from a Debian root (debootstrap, minbase) with this
 * machine's Node.js and npm at /usr/local, as the official image has them, and this machine's CA
 * certificates, so that npm in the build trusts what this machine trusts. Made once; kept for the next
 * check (`--clean` removes it).
 */
export async function ensureBaseImage(name: string, mirror: string): Promise<'reused' | 'made'> {
  if ((await podmanStatus(['image', 'exists', name])).code === 0) return 'reused';
  await ensureTools(['debootstrap']);
  const folder = mkdtempSync('/var/tmp/customer-core-base-');
  const root = path.join(folder, 'root');
  try {
    const log: string[] = [];
    await runLogged('debootstrap', ['--variant=minbase', 'bookworm', root, mirror], log);
    const local = path.join(root, 'usr/local');
    mkdirSync(path.join(local, 'bin'), { recursive: true });
    copyFileSync(process.execPath, path.join(local, 'bin/node'));
    const npm = path.resolve(path.dirname(process.execPath), '../lib/node_modules/npm');
    if (!existsSync(path.join(npm, 'bin/npm-cli.js'))) throw new Error(`npm is not at ${npm}`);
    cpSync(npm, path.join(local, 'lib/node_modules/npm'), { recursive: true, verbatimSymlinks: true });
    symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', path.join(local, 'bin/npm'));
    symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', path.join(local, 'bin/npx'));
    const changes = ['CMD ["node"]', 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'];
    const caBundle = '/etc/ssl/certs/ca-certificates.crt';
    if (existsSync(caBundle)) {
      // minbase has no ca-certificates package, and so no folder for the bundle.
      mkdirSync(path.join(root, path.dirname(caBundle)), { recursive: true });
      copyFileSync(caBundle, path.join(root, caBundle));
      changes.push(`ENV NODE_EXTRA_CA_CERTS=${caBundle}`);
    }
    // The packages debootstrap fetched, which the image needs no more (apt's folders stay).
    const archives = path.join(root, 'var/cache/apt/archives');
    for (const file of readdirSync(archives)) if (file.endsWith('.deb')) rmSync(path.join(archives, file));
    const tarball = path.join(folder, 'root.tar');
    await run('tar', [
      '-C',
      root,
      '--exclude=./proc/*',
      '--exclude=./sys/*',
      '--exclude=./dev/*',
      '-cf',
      tarball,
      '.',
    ]);
    await podman(['import', ...changes.flatMap((change) => ['--change', change]), tarball, name]);
    return 'made';
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
