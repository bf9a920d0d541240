import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { lingui } from '@lingui/vite-plugin';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig, type Plugin } from 'vite';
import { transformLinguiMacros } from './scripts/lingui-macros.mjs';
import { signedInHomeChunk } from './signed-in-home-chunk';

// The app's name and version are the product's: read from the root package.json, never typed here.
const rootPackage = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  name: string;
  version: string;
};

// Lingui's macros, compiled before React's transform sees the JSX.
const linguiMacros: Plugin = {
  name: 'lingui-macros',
  enforce: 'pre',
  transform: {
    filter: { id: /\/src\/.*\.tsx?$/ },
    handler: (code, id) => transformLinguiMacros(code, id),
  },
};

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const homeChunk = signedInHomeChunk(webRoot);

export default defineConfig({
  root: webRoot,
  // A catalogue fails the build when a message is missing from it or does not compile.
  plugins: [
    linguiMacros,
    react(),
    lingui({ failOnMissing: true, failOnCompileError: true }),
    homeChunk.plugin,
  ],
  // Workspace packages resolve to their TypeScript source (the "source" export condition).
  resolve: { conditions: ['source', ...defaultClientConditions] },
  define: {
    __APP_NAME__: JSON.stringify(rootPackage.name),
    __APP_VERSION__: JSON.stringify(rootPackage.version),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The size report reads the manifest to follow the sign-in route's first-load chunks.
    manifest: true,
    // Keep assets as files: inlining would grow the JavaScript budget and need data: in the CSP.
    assetsInlineLimit: 0,
    target: 'es2022',
    // The staff console's scripts are not listed for preloading in the borrower's first load: the list
    // would ride in its entry chunk, and staff fetch them as the console imports them (a wait only
    // they see). Its stylesheets stay listed: they load only that way.
    modulePreload: {
      resolveDependencies: (filename, deps) =>
        /(^|\/)console-app-/.test(filename) ? deps.filter((dep) => dep.endsWith('.css')) : deps,
    },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            homeChunk.group,
          ],
        },
      },
    },
  },
});
