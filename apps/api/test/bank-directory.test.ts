import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isValidRoutingNumber } from '@customer-core/contracts';
import { BANK_DIRECTORY_SAMPLE } from '../src/payments/bank-directory-sample.js';
import { bankName, loadBankDirectory } from '../src/payments/bank-directory.js';

/** A FedACH directory record of 155 characters, its fields at their positions. */
function record(routing: string, name: string, { office = 'O', type = '1', newRouting = '000000000' } = {}) {
  const line = [
    routing,
    office,
    '021001208', // servicing FRB
    type,
    '031526', // change date, MMDDYY
    newRouting,
    name.padEnd(36),
    '270 PARK AVENUE'.padEnd(36),
    'NEW YORK'.padEnd(20),
    'NY',
    '10017',
    '0000',
    '212',
    '555',
    '0100',
    '1', // institution status
    '1', // data view
    '     ',
  ].join('');
  assert.equal(line.length, 155);
  return line;
}

describe('bundled bank directory', () => {
  const directory = loadBankDirectory();

  it('names well-known banks by their routing numbers', () => {
    assert.equal(directory.nameOf('021000021'), 'JPMorgan Chase Bank, NA');
    assert.equal(directory.nameOf('071000013'), 'JPMorgan Chase Bank, NA');
    assert.equal(directory.nameOf('121042882'), 'Wells Fargo Bank, NA');
    assert.equal(directory.nameOf('026009593'), 'Bank of America, N.A.');
    assert.equal(directory.nameOf('011000138'), 'Bank of America, N.A.');
    assert.equal(directory.nameOf('021000089'), 'Citibank NA');
    assert.equal(directory.nameOf('091000022'), 'U.S. Bank NA');
    assert.equal(directory.nameOf('043000096'), 'PNC Bank, NA');
    assert.equal(directory.nameOf('061000104'), 'Truist Bank');
    assert.equal(directory.nameOf('021001088'), 'HSBC Bank USA, NA');
    assert.equal(directory.nameOf('011000028'), 'State Street Bank and Trust Company');
  });

  it('knows nothing of other numbers', () => {
    assert.equal(directory.nameOf('021000022'), null);
    assert.equal(directory.nameOf('122000661'), null);
    assert.equal(directory.nameOf(''), null);
    assert.equal(directory.nameOf(' 021000021'), null);
  });

  it('holds only routing numbers whose check digits are right', () => {
    assert.equal(directory.size, BANK_DIRECTORY_SAMPLE.length);
    for (const line of BANK_DIRECTORY_SAMPLE) assert.ok(isValidRoutingNumber(line.slice(0, 9)), line);
  });
});

describe('directory file', () => {
  let folder: string;
  before(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'bank-directory-'));
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  const write = (name: string, text: string) => {
    const file = path.join(folder, name);
    writeFileSync(file, text, 'latin1');
    return file;
  };

  it('reads the FedACH layout, line endings of either kind', () => {
    const file = write(
      'FedACHdir.txt',
      [
        record('021000021', 'JPMORGAN CHASE BANK, NA'),
        record('063100277', 'BANK OF AMERICA, N.A.', { office: 'B' }),
        record('011302357', "PEOPLE'S UNITED BANK, NA", { type: '2', newRouting: '221172186' }),
        record('256074974', 'NAVY FEDERAL CREDIT UNION'),
        record('021200339', 'TD BANK NA'),
      ].join('\r\n') + '\r\n',
    );
    const directory = loadBankDirectory(file);
    assert.equal(directory.size, 5);
    assert.equal(directory.nameOf('021000021'), 'JPMorgan Chase Bank, NA');
    assert.equal(directory.nameOf('063100277'), 'Bank of America, N.A.');
    // A renumbered bank keeps its name under its old number.
    assert.equal(directory.nameOf('011302357'), "People's United Bank, NA");
    assert.equal(directory.nameOf('256074974'), 'Navy Federal Credit Union');
    assert.equal(directory.nameOf('021200339'), 'TD Bank NA');
    // Only the file's banks: the bundled sample is not mixed in.
    assert.equal(directory.nameOf('121042882'), null);
  });

  it('keeps the first record of a routing number', () => {
    const file = write(
      'twice.txt',
      [record('021000021', 'JPMORGAN CHASE BANK, NA'), record('021000021', 'SOMETHING ELSE')].join('\n'),
    );
    assert.equal(loadBankDirectory(file).nameOf('021000021'), 'JPMorgan Chase Bank, NA');
  });

  it('refuses a file that is not a FedACH directory', () => {
    // The Fedwire directory: a telegraphic name where the office code should be.
    const fedwire = write(
      'fpddir.txt',
      '021000021JPMCHASE          JPMORGAN CHASE BANK, NA             NYNEW YORK\n',
    );
    assert.throws(() => loadBankDirectory(fedwire), /Line 1 of .*fpddir\.txt is not a FedACH record/);
    const short = write('short.txt', `${record('021000021', 'JPMORGAN CHASE BANK, NA')}\n021000089O\n`);
    assert.throws(() => loadBankDirectory(short), /Line 2 of .* is not a FedACH record/);
    assert.throws(() => loadBankDirectory(path.join(folder, 'missing.txt')), { code: 'ENOENT' });
  });
});

describe('bank names as borrowers read them', () => {
  it('capitalizes words and keeps abbreviations in capitals', () => {
    assert.equal(bankName('JPMORGAN CHASE BANK, NA'), 'JPMorgan Chase Bank, NA');
    assert.equal(bankName('BANK OF AMERICA, N.A.'), 'Bank of America, N.A.');
    assert.equal(bankName('U.S. BANK NA'), 'U.S. Bank NA');
    assert.equal(bankName('HSBC BANK USA, NA'), 'HSBC Bank USA, NA');
    assert.equal(bankName('FIRST FSB OF TWIN FALLS'), 'First FSB of Twin Falls');
    assert.equal(bankName('THE BANK OF NEW YORK MELLON'), 'The Bank of New York Mellon');
    assert.equal(bankName('1ST SOURCE BANK'), '1st Source Bank');
    assert.equal(bankName('WINSTON-SALEM FCU'), 'Winston-Salem FCU');
    assert.equal(bankName('BMO BANK N.A.'), 'BMO Bank N.A.');
  });
});
