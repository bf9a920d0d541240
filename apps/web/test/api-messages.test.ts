import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import * as contracts from '@customer-core/contracts';
import { SHARED_MESSAGES } from '../src/i18n/shared-messages.ts';
import { SIGN_IN_RULES_MESSAGES } from '../src/i18n/sign-in-rules-messages.ts';
import { catalogueIdOfTemplate } from './support/api-templates.ts';

// Every message the API answers a borrower's call with is shown on the borrower's screen
// (lib/api-failure.ts), so each must be in a catalogue to be shown in Spanish. Read from the source:
// each `new HttpError(status, code, message)`, its message a literal, a constant of the file or of
// the shared schemas, an entry of a table of the file, or a template whose only varying parts are
// the lender's name and phone and a number of minutes (in-portal-language.ts fills those in).
const apiSource = path.resolve(import.meta.dirname, '../../api/src');
const apiFiles = readdirSync(apiSource, { recursive: true })
  .map(String)
  .filter((file) => file.endsWith('.ts'));
const allApiSource = apiFiles.map((file) => readFileSync(path.join(apiSource, file), 'utf8')).join('\n');
// The one message with a borrower's own words in it (in-portal-language.ts).
const NAME_MISMATCH_ID = contracts.signatureNameMismatchMessage('{accountName}');

// Answers no borrower's screen shows, by why.
const NOT_FOR_BORROWERS = [
  // the lender's systems and operators, with the service credential
  'operators/',
  'http/service-credential.ts',
  'session/routes/lookup-token.ts',
  // the portal's own calls gone wrong (a token it holds, a body no form sends): the screens say what happened
  'session/token-problems.ts',
  'session/signed-in-borrower.ts',
  'http/malformed-input.ts',
];
// A hosted org's own password rules, passed on as its identity provider words them.
const PASSED_ON = ['${PASSWORD_REFUSED_MESSAGE} ${requirements}'];

/** Where the bracket opened at `open` closes, quotes and nested brackets skipped. */
function closingOf(source: string, open: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let at = open; at < source.length; at += 1) {
    const char = source[at]!;
    if (quote) {
      if (char === '\\') at += 1;
      else if (char === quote) quote = undefined;
    } else if ('\'"`'.includes(char)) quote = char;
    else if ('([{'.includes(char)) depth += 1;
    else if (')]}'.includes(char) && --depth === 0) return at;
  }
  throw new Error(`unclosed bracket at ${open}`);
}

/** The arguments of the call whose `(` is at `open`, as written. */
function argumentsAt(source: string, open: number): string[] {
  const inside = source.slice(open + 1, closingOf(source, open));
  const parts: string[] = [];
  let from = 0;
  for (let at = 0; at < inside.length; at += 1) {
    if ('([{\'"`'.includes(inside[at]!))
      at =
        inside[at] === '(' || inside[at] === '[' || inside[at] === '{'
          ? closingOf(inside, at)
          : closingQuote(inside, at);
    else if (inside[at] === ',') {
      parts.push(inside.slice(from, at).trim());
      from = at + 1;
    }
  }
  return [...parts, inside.slice(from).trim()].filter(Boolean);
}

function closingQuote(text: string, open: number): number {
  for (let at = open + 1; at < text.length; at += 1) {
    if (text[at] === '\\') at += 1;
    else if (text[at] === text[open]) return at;
  }
  throw new Error(`unclosed quote at ${open}`);
}

const unquote = (literal: string) =>
  literal
    .slice(1, -1)
    .replace(/\\'/g, "'")
    .replace(/\\u2019/g, '\u2019');
const STRING = /^'(?:[^'\\]|\\.)*'$|^"(?:[^"\\]|\\.)*"$/;

/** The texts an argument can be, or a reason it cannot be read. */
function textsOf(argument: string, source: string): string[] | { unread: string } {
  if (STRING.test(argument)) return [unquote(argument)];
  if (argument.startsWith('`')) {
    const template = catalogueIdOfTemplate(argument.slice(1, -1));
    if (PASSED_ON.includes(template)) return [];
    return template.includes('${') ? { unread: argument } : [template];
  }
  if (argument.startsWith('signatureNameMismatchMessage(')) return [NAME_MISMATCH_ID];
  const name = /^([A-Za-z_]\w*)(?:\[[^\]]+\](?:\.message)?)?$/.exec(argument)?.[1];
  if (!name) return { unread: argument };
  // A parameter: read its default (its callers' other values are constants, checked below).
  const defaulted = new RegExp(`\\b${name} = ([A-Z_]+)\\b`).exec(source)?.[1];
  if (defaulted) return textsOf(defaulted, source);
  // A parameter passed on: what its callers pass is read at their calls.
  if (/^[a-z]\w*$/.test(argument) && new RegExp(`\\(${name}: string`).test(source)) return [];
  const declared =
    new RegExp(`const ${name}(?::[^=]+)? =\\s*`).exec(source) ??
    new RegExp(`export const ${name} =\\s*`).exec(allApiSource);
  if (declared) {
    const rest = declared.input.slice(declared.index + declared[0].length);
    const value = /^'(?:[^'\\]|\\.)*'|^"(?:[^"\\]|\\.)*"/.exec(rest)?.[0];
    if (value) return [unquote(value)];
    if (rest.startsWith('{'))
      return [...rest.slice(0, closingOf(rest, 0)).matchAll(/'(?:[^'\\]|\\.)*'/g)]
        .map((match) => unquote(match[0]))
        .filter((text) => text.includes(' '));
  }
  const shared = (contracts as Record<string, unknown>)[name];
  return typeof shared === 'string' ? [shared] : { unread: argument };
}

describe('the API’s messages to borrowers in the portal’s language', () => {
  it('has each in a catalogue', () => {
    const ids = new Set([...SHARED_MESSAGES, ...SIGN_IN_RULES_MESSAGES].map((descriptor) => descriptor.id));
    const missing: string[] = [];
    let read = 0;
    for (const file of apiFiles) {
      if (NOT_FOR_BORROWERS.some((part) => file.startsWith(part))) continue;
      const source = readFileSync(path.join(apiSource, file), 'utf8');
      // Messages kept in constants, whichever call passes them on.
      for (const constant of source.matchAll(/const [A-Z_]+_MESSAGE = ('(?:[^'\\]|\\.)*')/g))
        if (!ids.has(unquote(constant[1]!))) missing.push(`${file}: ${unquote(constant[1]!)}`);
      for (const call of source.matchAll(/new HttpError\(|stepUpRefusal\(|stepUp\.require\(/g)) {
        const args = argumentsAt(source, call.index + call[0].length - 1);
        const message = args[{ 'new HttpError(': 2, 'stepUpRefusal(': 0, 'stepUp.require(': 1 }[call[0]]!];
        if (message === undefined) continue;
        const texts = textsOf(message, source);
        if ('unread' in texts) missing.push(`${file}: cannot read ${texts.unread}`);
        else {
          read += texts.length;
          missing.push(...texts.filter((text) => !ids.has(text)).map((text) => `${file}: ${text}`));
        }
      }
    }
    assert.deepEqual(missing, []);
    assert.ok(read > 50, `only ${read} messages read`);
  });
});
