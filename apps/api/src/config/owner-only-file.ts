import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Writes `text` to `file`, readable by its owner only, unless the file exists already. The file
 * appears complete or not at all (written aside, then linked into place), so two instances starting
 * together keep the first one's: each reads the file afterwards.
 */
export function createOwnerOnlyFile(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(aside, text, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(aside, file);
  } catch (error) {
    // Another instance made it first: theirs stays.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(aside);
  }
}
