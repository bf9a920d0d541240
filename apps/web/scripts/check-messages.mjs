// Fails when the catalogues (src/locales/<locale>/*.po) are not the code's: a message written in a component
// and not extracted, one left in a catalogue that no code uses, or one without its Spanish.
// (`npm run messages` extracts them; the build fails on a message missing too.)
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { URL, fileURLToPath } from 'node:url';

const web = fileURLToPath(new URL('..', import.meta.url));
const locales = fileURLToPath(new URL('../src/locales/', import.meta.url));
const files = readdirSync(locales, { recursive: true })
  .map(String)
  .filter((file) => file.endsWith('.po'));
const before = new Map(files.map((file) => [file, readFileSync(locales + file, 'utf8')]));

// Run by npm, which puts the workspace's binaries on the PATH.
execFileSync('lingui', ['extract', '--clean'], { cwd: web, stdio: 'ignore' });
const problems = [];
for (const [file, text] of before) {
  const after = readFileSync(locales + file, 'utf8');
  if (after !== text) {
    problems.push(`${file} is not up to date with the code: run "npm run messages -w @customer-core/web".`);
    writeFileSync(locales + file, text);
  }
  if (file.startsWith('en-US')) continue;
  // An entry is its msgid's lines, then its msgstr: an empty one that ends the entry (the header's
  // goes on) is a message not translated.
  const untranslated = [...text.matchAll(/^msgid ((?:".*"\n)+)msgstr ""\n(?!")/gm)].map((match) =>
    match[1]
      .split('\n')
      .filter(Boolean)
      .map((line) => line.slice(1, -1))
      .join(''),
  );
  for (const message of untranslated) problems.push(`${file}: no translation for "${message}"`);
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`Catalogues up to date and complete: ${files.join(', ')}.`);
