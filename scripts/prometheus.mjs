// The metrics tests check the alert rules with promtool and have a real Prometheus scrape a server:
// Debian's prometheus package has both. Where they are missing and this machine can install the
// package (root, apt-get), the test command installs it (and keeps its service from running);
// otherwise it stops before running anything, naming the command that fixes it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const DEBIAN = { prometheus: '/usr/bin/prometheus', promtool: '/usr/bin/promtool' };

/** PROMETHEUS_PATH and PROMTOOL_PATH for the tests: as set, else Debian's, installed if need be. */
export function ensurePrometheus() {
  const configured = { prometheus: process.env.PROMETHEUS_PATH, promtool: process.env.PROMTOOL_PATH };
  for (const [name, file] of Object.entries(configured)) {
    if (file && !existsSync(file)) stop(`${name.toUpperCase()}_PATH names ${file}, which does not exist.`);
  }
  const paths = {
    prometheus: configured.prometheus ?? DEBIAN.prometheus,
    promtool: configured.promtool ?? DEBIAN.promtool,
  };
  if (Object.values(paths).every((file) => existsSync(file))) return env(paths);

  const canInstall = process.getuid?.() === 0 && onPath('apt-get');
  if (!canInstall) {
    stop(
      "The metrics tests need Prometheus and promtool. Install Debian's package with " +
        "'sudo apt-get install --no-install-recommends prometheus' (then 'sudo systemctl disable --now prometheus' " +
        'if you do not want its service), or set PROMETHEUS_PATH and PROMTOOL_PATH, then run the tests again.',
    );
  }
  console.log("The metrics tests need Prometheus: installing Debian's prometheus package with apt-get.");
  const aptEnv = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', '--no-install-recommends', 'prometheus'],
  ]) {
    const run = spawnSync('apt-get', args, { env: aptEnv, stdio: ['ignore', 'ignore', 'inherit'] });
    if (run.status !== 0)
      stop(`'apt-get ${args.join(' ')}' failed; install prometheus, then run the tests again.`);
  }
  // The package starts its service where systemd runs: the tests start their own, on a free port.
  if (onPath('systemctl')) spawnSync('systemctl', ['disable', '--now', 'prometheus'], { stdio: 'ignore' });
  for (const file of Object.values(paths)) {
    if (!existsSync(file)) stop(`apt-get installed prometheus, but ${file} is missing.`);
  }
  return env(paths);
}

const env = (paths) => ({ PROMETHEUS_PATH: paths.prometheus, PROMTOOL_PATH: paths.promtool });

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

function stop(message) {
  console.error(message);
  process.exit(1);
}
