// What the tests need from Debian: Chromium for the browser tests (never a downloaded browser build:
// Debian's headless shell of Chromium, the build made for automation, as Playwright drives by default),
// Prometheus and promtool for the metrics tests, nginx for the rolling restart behind a proxy. Each is
// found (its *_PATH variable, else where Debian's package puts it) or, where this machine can (root,
// apt-get), installed before any test runs, every missing one in one apt-get run; otherwise the run
// stops before anything, naming the command that fixes it. Services the packages start are stopped:
// the tests run their own, on free ports.
// As a command (`node scripts/system-tools.mjs chromium prometheus nginx`), it installs what is missing
// of those: CI runs it while npm ci runs.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const TOOLS = {
  chromium: {
    needer: 'Browser tests need',
    // The headless shell: the same Chromium without the browser's own windows and pages around the
    // page, a third less of Chromium's CPU, which is most of a test run's. The browser itself for the
    // tests that need its profile's settings (third-party cookies blocked), which the shell ignores.
    packages: ['chromium-headless-shell', 'chromium'],
    files: { CHROMIUM_PATH: '/usr/bin/chromium-headless-shell', CHROMIUM_BROWSER_PATH: '/usr/bin/chromium' },
    // With its recommended packages (fonts among them), as a borrower's Chromium has them.
    recommends: true,
  },
  prometheus: {
    needer: 'The metrics tests need',
    files: { PROMETHEUS_PATH: '/usr/bin/prometheus', PROMTOOL_PATH: '/usr/bin/promtool' },
    service: 'prometheus',
  },
  nginx: {
    needer: 'The rolling-restart test needs',
    files: { NGINX_PATH: '/usr/sbin/nginx' },
    service: 'nginx',
  },
};

/** The environment naming each tool's files (CHROMIUM_PATH, …), installing the missing tools first. */
export function ensureSystemTools(names) {
  const found = {};
  const missing = [];
  for (const name of names) {
    const tool = TOOLS[name];
    const files = Object.fromEntries(
      Object.entries(tool.files).map(([variable, debian]) => {
        const configured = process.env[variable];
        if (configured && !existsSync(configured))
          stop(`${variable} names ${configured}, which does not exist.`);
        return [variable, configured || debian];
      }),
    );
    Object.assign(found, files);
    if (!Object.values(files).every((file) => existsSync(file))) missing.push(name);
  }
  if (missing.length > 0) install(missing);
  return found;
}

function install(names) {
  const packagesOf = (name) => TOOLS[name].packages ?? [name];
  const packages = names.flatMap(packagesOf).join(' ');
  if (!(process.getuid?.() === 0 && onPath('apt-get'))) {
    stop(
      `${names.map((name) => `${TOOLS[name].needer} ${name}`).join('; ')}. Install Debian's ` +
        `${names.length > 1 ? 'packages' : 'package'} with 'sudo apt-get install ${packages}' ` +
        `(or set ${names.flatMap((name) => Object.keys(TOOLS[name].files)).join(', ')}), then run the tests again.`,
    );
  }
  console.log(
    `${names.map((name) => `${TOOLS[name].needer} ${name}`).join('; ')}: installing Debian's ${packages} with apt-get.`,
  );
  const withRecommends = names.filter((name) => TOOLS[name].recommends);
  const without = names.filter((name) => !TOOLS[name].recommends);
  apt(['update', '-qq']);
  if (withRecommends.length > 0) apt(['install', '-y', '-qq', ...withRecommends.flatMap(packagesOf)]);
  if (without.length > 0)
    apt(['install', '-y', '-qq', '--no-install-recommends', ...without.flatMap(packagesOf)]);
  const services = names.map((name) => TOOLS[name].service).filter(Boolean);
  if (services.length > 0 && onPath('systemctl'))
    spawnSync('systemctl', ['disable', '--now', ...services], { stdio: 'ignore' });
  for (const name of names) {
    for (const file of Object.values(TOOLS[name].files)) {
      if (!existsSync(file)) stop(`apt-get installed ${name}, but ${file} is missing.`);
    }
  }
}

function apt(args) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = spawnSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  if (run.status !== 0) stop(`'apt-get ${args.join(' ')}' failed; install it, then run the tests again.`);
}

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

function stop(message) {
  console.error(message);
  process.exit(1);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((name) => !(name in TOOLS));
  if (unknown.length > 0) stop(`Unknown: ${unknown.join(', ')}; one of ${Object.keys(TOOLS).join(', ')}.`);
  ensureSystemTools(asked);
}
