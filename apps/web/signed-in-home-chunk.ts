import path from 'node:path';
import type { Plugin } from 'vite';

// The signed-in home's code in one file. Left to automatic splitting, the modules a sign-in lands on
// (the signed-in shell, the home, the session's timers and dialog, the loans' display) come as some
// thirty small files, each shared by a different set of screens, that the browser fetches over a
// handful of connections while the login callback finishes. Here they are one chunk.
//
// What goes in is worked out from the module graph, not listed by folder: what the home's roots import,
// all the way down, except what the app loads on any page (its first paint and what that loads when and
// if it does: the sign-in form's code, the session check, the catalogues) and what the login callback
// asks for before the home. So the sign-in route's weight cannot change by this chunk, the callback's
// own work never waits for it, and a module that starts to be used there leaves the chunk by itself.
// Any other screen that shares one of its modules loads the chunk too: the signed-in screens, the staff
// console (its dialogs), and the registration screen (the notice it leaves for the home), which so
// fetches the home's code a step ahead.

/** What a sign-in lands on: the signed-in shell, the home, and the session's timers and dialog. */
const HOME_ROOTS = [
  'src/components/signed-in-shell/signed-in-layout.tsx',
  'src/features/dashboard/dashboard-screen.tsx',
  'src/lib/session/session-manager.ts',
  'src/features/session/session-expiry-dialog.tsx',
];
/** The app's first paint. */
const FIRST_PAINT = 'src/main.tsx';
/** Where the screens are imported on demand: what they import is not the app's own. */
const SCREEN_TABLES = ['src/app/router.tsx', 'src/features/dashboard/preload-home.ts'];
/** What the login callback asks for before the home's code: the loans, asked for as it opens. */
const BEFORE_HOME = ['src/features/dashboard/use-loans.ts'];

interface ModuleEdges {
  imports: readonly string[];
  dynamicImports: readonly string[];
}

/** `roots` and what they import, and what they import on demand where `onDemand(importer)`. */
function reachable(
  graph: ReadonlyMap<string, ModuleEdges>,
  roots: Iterable<string>,
  onDemand: (importer: string, imported: string) => boolean = () => false,
): Set<string> {
  const seen = new Set<string>();
  const pending = [...roots];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    const edges = graph.get(id);
    if (!edges) continue;
    pending.push(...edges.imports, ...edges.dynamicImports.filter((imported) => onDemand(id, imported)));
  }
  return seen;
}

/** The plugin that reads the module graph, and the chunk group that uses what it read. */
export function signedInHomeChunk(webRoot: string) {
  const at = (file: string) => path.join(webRoot, file);
  const homeRoots = new Set(HOME_ROOTS.map(at));
  const screenTables = new Set(SCREEN_TABLES.map(at));
  const graph = new Map<string, ModuleEdges>();
  let members: Set<string> | undefined;

  function homeOnly(): Set<string> {
    const apart = reachable(
      graph,
      [at(FIRST_PAINT), ...BEFORE_HOME.map(at)],
      (importer, imported) => !screenTables.has(importer) && !homeRoots.has(imported),
    );
    return new Set([...reachable(graph, homeRoots)].filter((id) => !apart.has(id)));
  }

  const plugin: Plugin = {
    name: 'signed-in-home-chunk',
    apply: 'build',
    buildEnd() {
      // Each build reads its own graph (a watched build runs again in the same process).
      graph.clear();
      members = undefined;
      for (const id of this.getModuleIds()) {
        const info = this.getModuleInfo(id);
        if (info) graph.set(id, { imports: info.importedIds, dynamicImports: info.dynamicallyImportedIds });
      }
      for (const file of [FIRST_PAINT, ...SCREEN_TABLES, ...BEFORE_HOME, ...HOME_ROOTS]) {
        if (!graph.has(at(file)))
          this.error(`${file} is not in the build any more: update signed-in-home-chunk.ts`);
      }
    },
  };
  const group = {
    name: 'signed-in-home',
    test: (id: string) => (members ??= homeOnly()).has(id),
    // Only the modules found above: what else they import stays where automatic splitting puts it.
    includeDependenciesRecursively: false,
  };
  return { plugin, group };
}
