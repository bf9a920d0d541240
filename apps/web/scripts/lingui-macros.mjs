// Lingui's macros (t`…`, <Trans>…</Trans>) become message descriptors at build time: the one Babel
// pass the portal needs, on the files that import a macro, shared by Vite and the component tests.
// TypeScript and JSX come out as they went in; Vite (or tsx) compiles them afterwards.

const MACRO_IMPORT = /from ['"]@lingui\/(core|react)\/macro['"]/;

/** Whether the file imports a macro: the only files the transform changes. */
export const usesLinguiMacros = (code) => MACRO_IMPORT.test(code);

/**
 * Babel and Lingui's plugin, loaded at the first file with macros (component tests that find every
 * file compiled already never load them). The macros need Lingui's defaults only (which runtime to
 * call), not the catalogues' configuration.
 */
let compiler;
const loadCompiler = () =>
  (compiler ??= Promise.all([
    import('@babel/core'),
    import('@lingui/babel-plugin-lingui-macro'),
    import('@lingui/conf'),
  ]).then(([{ transformAsync }, { default: linguiMacro }, { makeConfig }]) => ({
    transformAsync,
    plugin: [linguiMacro, { linguiConfig: makeConfig({}, { skipValidation: true }) }],
  })));

/** The file with its macros compiled, or null when it imports none. */
export async function transformLinguiMacros(code, filename) {
  if (!usesLinguiMacros(code)) return null;
  const { transformAsync, plugin } = await loadCompiler();
  const result = await transformAsync(code, {
    filename,
    babelrc: false,
    configFile: false,
    sourceMaps: true,
    parserOpts: { plugins: ['typescript', 'jsx'] },
    plugins: [plugin],
  });
  return result?.code ? { code: result.code, map: result.map } : null;
}
