// The load hook test-lingui-macros.mjs registers (it runs on node's hooks thread). Compiling a file's
// macros is a Babel pass, most of the CPU a component test's process spends loading the portal: so
// each file's output is kept in the temporary folder under a hash of its path and text, as tsx keeps
// its own, and a later run (a fresh clone too) reads it instead. The folder is named by the
// transformer and the installed packages, so that a change to either starts an empty one.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, URL } from 'node:url';

const transformer = new URL('../apps/web/scripts/lingui-macros.mjs', import.meta.url);
const CACHE_PREFIX = 'customer-core-lingui-macros-';
const cacheDir = path.join(
  tmpdir(),
  CACHE_PREFIX +
    createHash('sha256')
      .update(readFileSync(transformer))
      .update(readFileSync(new URL('../package-lock.json', import.meta.url)))
      .digest('hex')
      .slice(0, 16),
);
// Folders of other transformers or packages (older checkouts, edited dependencies): not read again.
for (const name of readdirSync(tmpdir()))
  if (name.startsWith(CACHE_PREFIX) && path.join(tmpdir(), name) !== cacheDir)
    rmSync(path.join(tmpdir(), name), { recursive: true, force: true });

/** What a module becomes with its macros compiled (cached, or compiled now); null when it has none. */
async function compiled(file) {
  const code = await readFile(file, 'utf8');
  const cached = path.join(
    cacheDir,
    `${createHash('sha256').update(file).update('\0').update(code).digest('hex')}.js`,
  );
  try {
    // An empty file: the module has no macros (compiled, one never is empty).
    const kept = await readFile(cached, 'utf8');
    return kept ? { code: kept } : null;
  } catch {
    // Not compiled yet.
  }
  const { transformLinguiMacros } = await import(transformer.href);
  const result = await transformLinguiMacros(code, file);
  // Written aside and renamed: two test processes never read half a file. Kept when it can be: a run in
  // a checkout of other packages may remove the folder meanwhile.
  const partial = `${cached}.${process.pid}`;
  try {
    await mkdir(cacheDir, { recursive: true });
    await writeFile(partial, result?.code ?? '');
    await rename(partial, cached);
  } catch {
    await rm(partial, { force: true }).catch(() => {});
  }
  return result;
}

export async function load(url, context, nextLoad) {
  // A catalogue is an empty one: the tests read the components' English source messages.
  if (/\/apps\/web\/src\/locales\/.*\.po$/.test(url))
    return { format: 'module', source: 'export const messages = {};', shortCircuit: true };
  if (!/\/apps\/web\/src\/.*\.tsx?$/.test(url)) return nextLoad(url, context);
  const result = await compiled(fileURLToPath(url));
  return result ? { format: 'module', source: result.code, shortCircuit: true } : nextLoad(url, context);
}
