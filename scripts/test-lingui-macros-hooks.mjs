// The load hook test-lingui-macros.mjs registers (it runs on node's hooks thread). Compiling a file's
// macros is a Babel pass, most of the CPU a component test's process spends loading the portal: so
// each file's output is kept in the temporary folder under a hash of its text, as tsx keeps its own,
// and a later run reads it instead, from any clone (the output does not depend on where the file is:
// the same in two clones, for all 196 files compiled). The folder is named by the transformer and the
// installed packages, so that a change to either starts an empty one.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { transformLinguiMacros, usesLinguiMacros } from '../apps/web/scripts/lingui-macros.mjs';

const CACHE_PREFIX = 'customer-core-lingui-macros-';
const cacheDir = path.join(
  tmpdir(),
  CACHE_PREFIX +
    createHash('sha256')
      .update(readFileSync(new URL('../apps/web/scripts/lingui-macros.mjs', import.meta.url)))
      .update(readFileSync(new URL('../package-lock.json', import.meta.url)))
      .digest('hex')
      .slice(0, 16),
);
// Folders of other transformers or packages (older checkouts, edited dependencies): not read again.
for (const name of readdirSync(tmpdir()))
  if (name.startsWith(CACHE_PREFIX) && path.join(tmpdir(), name) !== cacheDir)
    rmSync(path.join(tmpdir(), name), { recursive: true, force: true });

/** The module's code with its macros compiled: kept from an earlier run, or compiled now. */
async function compiled(code, file) {
  const cached = path.join(cacheDir, `${createHash('sha256').update(code).digest('hex')}.js`);
  try {
    return await readFile(cached, 'utf8');
  } catch {
    // Not compiled yet.
  }
  const result = await transformLinguiMacros(code, file);
  if (!result) return code;
  // Written aside and renamed: two test processes never read half a file. Kept when it can be: a run in
  // a checkout of other packages may remove the folder meanwhile.
  const partial = `${cached}.${process.pid}`;
  try {
    await mkdir(cacheDir, { recursive: true });
    await writeFile(partial, result.code);
    await rename(partial, cached);
  } catch {
    await rm(partial, { force: true }).catch(() => {});
  }
  return result.code;
}

export async function load(url, context, nextLoad) {
  // A catalogue is an empty one: the tests read the components' English source messages.
  if (/\/apps\/web\/src\/locales\/.*\.po$/.test(url))
    return { format: 'module', source: 'export const messages = {};', shortCircuit: true };
  if (!/\/apps\/web\/src\/.*\.tsx?$/.test(url)) return nextLoad(url, context);
  const file = fileURLToPath(url);
  const code = await readFile(file, 'utf8');
  if (!usesLinguiMacros(code)) return nextLoad(url, context);
  return { format: 'module', source: await compiled(code, file), shortCircuit: true };
}
