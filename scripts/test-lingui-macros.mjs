// The portal's components use Lingui's macros, which Vite compiles with the build
// (apps/web/scripts/lingui-macros.mjs). Under node's test runner the same transform runs as a module
// is loaded (test-lingui-macros-hooks.mjs), before tsx compiles its TypeScript: so this hook is
// registered before tsx. A catalogue (.po) is an empty one to them: the tests read the components'
// English source messages.
import { register } from 'node:module';
import { URL } from 'node:url';

register(new URL('./test-lingui-macros-hooks.mjs', import.meta.url));
