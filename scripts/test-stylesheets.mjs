// The portal's components import their stylesheets (Vite bundles them); under node's test runner an
// imported stylesheet is an empty module, so that a component test can load the component as built.
import { register } from 'node:module';

register(
  `data:text/javascript,${encodeURIComponent(`
    export async function load(url, context, nextLoad) {
      if (/\\.css(\\?|$)/.test(url)) return { format: 'module', source: '', shortCircuit: true };
      return nextLoad(url, context);
    }
  `)}`,
);
