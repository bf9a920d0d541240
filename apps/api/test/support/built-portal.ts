import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';

const WEB_INDEX = path.resolve(import.meta.dirname, '../../../web/index.html');

export interface BuiltPortal {
  /** The folder, laid out as `npm run build` lays out apps/web/dist. */
  dir: string;
  /** The address of its entry script, a hashed asset. */
  entry: string;
  remove(): void;
}

/**
 * A portal folder as the web's build writes it, for tests of serving it that need no build: the
 * portal's own index.html (its runtime-configuration placeholder byte for byte) loading one hashed
 * asset, written beside its brotli and gzip copies.
 */
export function builtPortal(): BuiltPortal {
  const dir = mkdtempSync(path.join(tmpdir(), 'customer-core-portal-'));
  const entry = '/assets/index-T3stB1ld.js';
  const html = readFileSync(WEB_INDEX, 'utf8').replace(
    /<script type="module" src="[^"]+"><\/script>/,
    `<script type="module" crossorigin src="${entry}"></script>`,
  );
  if (!html.includes(entry)) throw new Error(`${WEB_INDEX} no longer loads its entry script as expected`);
  writeFileSync(path.join(dir, 'index.html'), html);
  const script = Buffer.from('document.title = "Customer portal";\n'.repeat(20));
  const file = path.join(dir, entry);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, script);
  writeFileSync(`${file}.br`, brotliCompressSync(script));
  writeFileSync(`${file}.gz`, gzipSync(script));
  writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return { dir, entry, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
