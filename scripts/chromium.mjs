// Browser tests drive Debian's Chromium, never a downloaded browser build. Where it is missing and this
// machine can install Debian's package (root, apt-get), the test command installs it; otherwise it
// stops before running anything, naming the command that fixes it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** The Chromium binary browser tests launch: CHROMIUM_PATH, else Debian's package, installed if need be. */
export function ensureChromium() {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    if (existsSync(configured)) return configured;
    return stop(`CHROMIUM_PATH names ${configured}, which does not exist.`);
  }
  if (existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;

  const canInstall = process.getuid?.() === 0 && onPath('apt-get');
  if (!canInstall) {
    return stop(
      "Browser tests need Chromium. Install Debian's package with 'sudo apt-get install chromium' " +
        '(or set CHROMIUM_PATH to a Chromium binary), then run npm test again.',
    );
  }
  console.log("Browser tests need Chromium: installing Debian's chromium package with apt-get.");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', 'chromium'],
  ]) {
    const run = spawnSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
    if (run.status !== 0)
      return stop(`'apt-get ${args.join(' ')}' failed; install chromium, then run npm test again.`);
  }
  if (!existsSync(DEBIAN_CHROMIUM))
    return stop(`apt-get installed chromium, but ${DEBIAN_CHROMIUM} is missing.`);
  return DEBIAN_CHROMIUM;
}

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

function stop(message) {
  console.error(message);
  process.exit(1);
}
