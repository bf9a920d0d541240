// Lingui's macros (t`…`, <Trans>…</Trans>) become message descriptors at build time: the one Babel
// pass the portal needs, on the files that import a macro, shared by Vite and the component tests.
// TypeScript and JSX come out as they went in; Vite (or tsx) compiles them afterwards.
import { transformAsync } from '@babel/core';
import linguiMacro from '@lingui/babel-plugin-lingui-macro';
import { makeConfig } from '@lingui/conf';

// The macros need Lingui's defaults only (which runtime to call), not the catalogues' configuration.
const linguiConfig = makeConfig({}, { skipValidation: true });

const MACRO_IMPORT = /from ['"]@lingui\/(core|react)\/macro['"]/;

/** The file with its macros compiled, or null when it imports none. */
export async function transformLinguiMacros(code, filename) {
  if (!MACRO_IMPORT.test(code)) return null;
  const result = await transformAsync(code, {
    filename,
    babelrc: false,
    configFile: false,
    sourceMaps: true,
    parserOpts: { plugins: ['typescript', 'jsx'] },
    plugins: [[linguiMacro, { linguiConfig }]],
  });
  return result?.code ? { code: result.code, map: result.map } : null;
}
