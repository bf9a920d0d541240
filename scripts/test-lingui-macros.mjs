// The portal's components use Lingui's macros, which Vite compiles with the build
// (apps/web/scripts/lingui-macros.mjs). Under node's test runner the same transform runs as a module
// is loaded, before tsx compiles its TypeScript: so this hook is registered before tsx. A catalogue
// (.po) is an empty one to them: the tests read the components' English source messages.
import { register } from 'node:module';
import { URL } from 'node:url';

register(
  `data:text/javascript,${encodeURIComponent(`
    import { readFile } from 'node:fs/promises';
    import { fileURLToPath } from 'node:url';
    const transformer = ${JSON.stringify(new URL('../apps/web/scripts/lingui-macros.mjs', import.meta.url).href)};
    export async function load(url, context, nextLoad) {
      if (/\\/apps\\/web\\/src\\/locales\\/.*\\.po$/.test(url))
        return { format: 'module', source: 'export const messages = {};', shortCircuit: true };
      if (!/\\/apps\\/web\\/src\\/.*\\.tsx?$/.test(url)) return nextLoad(url, context);
      const file = fileURLToPath(url);
      const code = await readFile(file, 'utf8');
      const { transformLinguiMacros } = await import(transformer);
      const compiled = await transformLinguiMacros(code, file);
      return compiled ? { format: 'module', source: compiled.code, shortCircuit: true } : nextLoad(url, context);
    }
  `)}`,
);
