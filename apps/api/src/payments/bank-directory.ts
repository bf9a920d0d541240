import { readFileSync } from 'node:fs';
import { BANK_DIRECTORY_SAMPLE } from './bank-directory-sample.js';

// The bank's name for a routing number, shown back to the borrower who typed it: a good check digit
// does not prove the number is their bank's (design: payments.md section 2). The source is the Federal
// Reserve's FedACH participant directory (FedACHdir.txt), fixed-width records of 155 characters:
//   1-9 routing number, 10 office code (O main, B branch), 11-19 servicing FRB number, 20 record type
//   code, 21-26 change date (MMDDYY), 27-35 new routing number, 36-71 customer name, then address,
//   city, state, ZIP, telephone, institution status and data view codes, filler.

export interface BankDirectory {
  /** The bank's name for a routing number, as a borrower reads it; null when the directory lacks it. */
  nameOf(routing: string): string | null;
  /** How many routing numbers the directory knows. */
  readonly size: number;
}

const ROUTING = { start: 0, end: 9 };
const OFFICE_CODE = 9;
const NAME = { start: 35, end: 71 };

/**
 * The directory in a FedACH directory file, or the bundled sample of well-known banks without one.
 * A line that is not a FedACH record fails the load: a wrong file should not pass as an empty directory.
 */
export function loadBankDirectory(path?: string): BankDirectory {
  // latin1 reads one character per byte, so the columns stay put even if a stray non-ASCII byte appears.
  const lines = path === undefined ? BANK_DIRECTORY_SAMPLE : readFileSync(path, 'latin1').split(/\r?\n/);
  const names = new Map<string, string>();
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const routing = line.slice(ROUTING.start, ROUTING.end);
    const name = line.slice(NAME.start, NAME.end).trim();
    const office = line[OFFICE_CODE];
    if (!/^\d{9}$/.test(routing) || (office !== 'O' && office !== 'B') || name === '') {
      throw new Error(`Line ${index + 1} of ${path ?? 'the bundled bank directory'} is not a FedACH record.`);
    }
    if (!names.has(routing)) names.set(routing, bankName(name));
  });
  return { nameOf: (routing) => names.get(routing) ?? null, size: names.size };
}

/** Names whose capitals are not a rule's: brands. */
const SPELLED = new Map([['JPMORGAN', 'JPMorgan']]);
/** Abbreviations with a vowel, which the no-vowel rule below would not keep in capitals. */
const ABBREVIATIONS = new Set(['NA', 'NY', 'USA', 'USAA', 'CU', 'FCU', 'BMO', 'UBS']);
/** Joining words, in lower case unless they start the name. */
const JOINING = new Set(['OF', 'AND', 'THE', 'FOR', 'AT', 'IN', 'ON', 'DE', 'DEL', 'LA']);

/**
 * A directory name (capitals only) as a borrower reads it: each word capitalized, except single
 * letters (U.S., N.A.) and words without a vowel (PNC, HSBC, FSB) and a few other abbreviations kept
 * in capitals, joining words in lower case, and letters after a digit or apostrophe (1st, People's)
 * in lower case. 'JPMORGAN CHASE BANK, NA' becomes 'JPMorgan Chase Bank, NA'.
 */
export function bankName(directoryName: string): string {
  let first = true;
  return directoryName.replace(/[A-Za-z]+/g, (word: string, at: number) => {
    const upper = word.toUpperCase();
    const before = directoryName[at - 1] ?? '';
    const starts = first;
    first = false;
    if (/[0-9']/.test(before)) return word.toLowerCase();
    const spelled = SPELLED.get(upper);
    if (spelled) return spelled;
    if (word.length === 1 || ABBREVIATIONS.has(upper) || !/[AEIOUY]/.test(upper)) return upper;
    if (!starts && JOINING.has(upper)) return word.toLowerCase();
    return upper[0] + upper.slice(1).toLowerCase();
  });
}
