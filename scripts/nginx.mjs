// The rolling-restart test puts the API behind a real nginx: Debian's. Where it is missing and this
// machine can install the package (root, apt-get), the test command installs it (and keeps its
// service from running: the test starts its own, on free loopback ports); otherwise it stops before
// running anything, naming the command that fixes it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const DEBIAN_NGINX = '/usr/sbin/nginx';

/** NGINX_PATH for the tests: as set, else Debian's, installed if need be. */
export function ensureNginx() {
  const configured = process.env.NGINX_PATH;
  if (configured) {
    if (existsSync(configured)) return { NGINX_PATH: configured };
    stop(`NGINX_PATH names ${configured}, which does not exist.`);
  }
  if (existsSync(DEBIAN_NGINX)) return { NGINX_PATH: DEBIAN_NGINX };

  const canInstall = process.getuid?.() === 0 && onPath('apt-get');
  if (!canInstall) {
    stop(
      "The rolling-restart test needs nginx. Install Debian's package with " +
        "'sudo apt-get install --no-install-recommends nginx' (then 'sudo systemctl disable --now nginx' " +
        'if you do not want its service), or set NGINX_PATH, then run the tests again.',
    );
  }
  console.log("The rolling-restart test needs nginx: installing Debian's nginx package with apt-get.");
  const aptEnv = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', '--no-install-recommends', 'nginx'],
  ]) {
    const run = spawnSync('apt-get', args, { env: aptEnv, stdio: ['ignore', 'ignore', 'inherit'] });
    if (run.status !== 0)
      stop(`'apt-get ${args.join(' ')}' failed; install nginx, then run the tests again.`);
  }
  // Where systemd runs, the package starts its service on port 80: the test needs none of it.
  if (onPath('systemctl')) spawnSync('systemctl', ['disable', '--now', 'nginx'], { stdio: 'ignore' });
  if (!existsSync(DEBIAN_NGINX)) stop(`apt-get installed nginx, but ${DEBIAN_NGINX} is missing.`);
  return { NGINX_PATH: DEBIAN_NGINX };
}

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

function stop(message) {
  console.error(message);
  process.exit(1);
}
