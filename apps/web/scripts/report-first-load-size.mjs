// Prints the gzipped JavaScript of the sign-in route (/auth/login), read from Vite's manifest, and
// checks the first paint against the budget (performance-targets.md: 110 KB, React included).
//   first paint   the entry chunk and its static imports: all /auth/login needs to paint the
//                 screen, form included (an editable placeholder of the same markup)
//   interactive   the form that takes over right after the first paint
//   on submit     fetched once the borrower starts using the form: the sign-in rules (zod) and the
//                 sign-in flow, then the identity provider's sign-in client (okta-auth-js) as the flow starts
// English is in the first paint; the Spanish catalogue is fetched before it when Spanish is chosen,
// so the first paint in Spanish is the same files and that catalogue (checked against the budget too).
import { readFileSync } from 'node:fs';
import { generateMessageId } from '@lingui/message-utils/generateMessageId';
import { URL, fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 110 * 1024;
const TIERS = [
  ['first paint', null],
  ['interactive', ['src/features/sign-in/sign-in-form.tsx']],
  [
    'on submit',
    [
      'src/features/sign-in/sign-in-rules.ts',
      'src/lib/auth/sign-in.ts',
      'src/lib/identity-provider-client.ts',
    ],
  ],
];

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const manifest = JSON.parse(readFileSync(`${dist}.vite/manifest.json`, 'utf8'));
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) throw new Error('No entry chunk in the Vite manifest');

const counted = new Set();
const collect = (key, files, withDynamic = false) => {
  const chunk = manifest[key];
  if (!chunk || counted.has(chunk.file)) return;
  counted.add(chunk.file);
  files.push(chunk.file);
  for (const imported of chunk.imports ?? []) collect(imported, files);
  if (withDynamic) for (const imported of chunk.dynamicImports ?? []) collect(imported, files);
};
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const gzipped = (file) => gzipSync(readFileSync(`${dist}${file}`), { level: 9 }).length;

let firstPaint = 0;
const firstPaintFiles = [];
let cumulative = 0;
for (const [name, keys] of TIERS) {
  const files = [];
  for (const key of keys ?? [entryKey]) collect(key, files);
  let total = 0;
  console.log(`${name}:`);
  for (const file of files) {
    const size = gzipped(file);
    total += size;
    console.log(`  ${file.padEnd(44)} ${kb(size).padStart(9)}`);
  }
  cumulative += total;
  if (name === 'first paint') {
    firstPaint = total;
    firstPaintFiles.push(...files);
  }
  console.log(`  ${`= ${name}`.padEnd(44)} ${kb(total).padStart(9)}   (cumulative ${kb(cumulative)})`);
}

// The first paint must need no word from the `portal` catalogue (lingui.config.ts), which it does not
// load: every message id its code names is in `sign-in`.
const catalogueIds = (part) => {
  const po = readFileSync(new URL(`../src/locales/en-US/${part}.po`, import.meta.url), 'utf8');
  return new Set(
    po.split('\n\n').flatMap((entry) => {
      const text = (key) =>
        [...entry.matchAll(new RegExp(`^${key} ((?:".*"\\n?)+)`, 'gm'))].map((m) =>
          m[1]
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line))
            .join(''),
        )[0];
      const message = text('msgid');
      if (!message) return [];
      return [
        entry.includes('js-lingui-explicit-id') ? message : generateMessageId(message, text('msgctxt') ?? ''),
      ];
    }),
  );
};
const signInIds = catalogueIds('sign-in');
const portalOnly = [...catalogueIds('portal')].filter((id) => !signInIds.has(id));
const firstPaintCode = firstPaintFiles.map((file) => readFileSync(`${dist}${file}`, 'utf8')).join('\n');
const missing = portalOnly.filter((id) => firstPaintCode.includes(`id:\`${id}\``));
if (missing.length > 0) {
  console.log(
    `The first paint names messages of the portal catalogue, not of sign-in: ${missing.join(', ')}`,
  );
  process.exitCode = 1;
}

const spanishKey = Object.keys(manifest).find((key) => key.endsWith('src/locales/es-US/sign-in.po'));
if (!spanishKey) throw new Error('No Spanish sign-in catalogue in the Vite manifest');
const spanish = gzipped(manifest[spanishKey].file);
console.log(`Spanish sign-in catalogue, fetched when chosen: ${manifest[spanishKey].file} ${kb(spanish)}`);

for (const [language, bytes] of [
  ['English', firstPaint],
  ['Spanish', firstPaint + spanish],
]) {
  const verdict = bytes <= BUDGET_BYTES ? 'within budget' : 'OVER BUDGET';
  console.log(
    `Sign-in route first load in ${language}: ${kb(bytes)} of JavaScript gzipped (budget ${kb(BUDGET_BYTES)}): ${verdict}`,
  );
  if (bytes > BUDGET_BYTES) process.exitCode = 1;
}
