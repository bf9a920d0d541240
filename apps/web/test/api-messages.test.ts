import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import * as contracts from '@customer-core/contracts';
import ts from 'typescript';
import { SHARED_MESSAGES } from '../src/i18n/shared-messages.ts';
import { SIGN_IN_RULES_MESSAGES } from '../src/i18n/sign-in-rules-messages.ts';
import { catalogueIdOfTemplate } from './support/api-templates.ts';

// Every message the API answers a borrower's call with is shown on the borrower's screen
// (lib/api-failure.ts), so each must be in a catalogue to be shown in Spanish. Read from the source,
// through TypeScript's parser:
// each `new HttpError(status, code, message)`, its message a literal, a constant of the file or of
// the shared schemas, an entry of a table of the file, or a template whose only varying parts are
// the lender's name and phone and a number of minutes (in-portal-language.ts fills those in).
const apiSource = path.resolve(import.meta.dirname, '../../api/src');
const apiFiles = readdirSync(apiSource, { recursive: true })
  .map(String)
  .filter((file) => file.endsWith('.ts'));
// The one message with a borrower's own words in it (in-portal-language.ts).
const NAME_MISMATCH_ID = contracts.signatureNameMismatchMessage('{accountName}');

// Answers no borrower's screen shows, by why.
const NOT_FOR_BORROWERS = [
  // the lender's systems and operators, with the service credential
  'operators/',
  'audit/',
  // the staff console's sign-in and access check (staff read the console's own words: src/console)
  'console/',
  'http/service-credential.ts',
  'session/routes/lookup-token.ts',
  // the portal's own calls gone wrong (a token it holds, a body no form sends): the screens say what happened
  'session/token-problems.ts',
  'session/signed-in-borrower.ts',
  'http/malformed-input.ts',
];
// A hosted org's own password rules, passed on as its identity provider words them.
const PASSED_ON = ['${PASSWORD_REFUSED_MESSAGE} ${requirements}'];

const parsed = new Map<string, ts.SourceFile>(
  apiFiles.map((file) => [
    file,
    ts.createSourceFile(file, readFileSync(path.join(apiSource, file), 'utf8'), ts.ScriptTarget.Latest, true),
  ]),
);

/** Every node of a file, depth first. */
function* nodesOf(node: ts.Node): Generator<ts.Node> {
  yield node;
  const children: ts.Node[] = [];
  ts.forEachChild(node, (child) => void children.push(child));
  for (const child of children) yield* nodesOf(child);
}

type Declaration = ts.VariableDeclaration | ts.ParameterDeclaration;
const isDeclaration = (node: ts.Node): node is Declaration =>
  ts.isVariableDeclaration(node) || ts.isParameter(node);
/** Each file's constants and parameters by name, read once. */
const declarations = new Map(
  [...parsed].map(([file, source]) => [
    file,
    new Map([...nodesOf(source)].filter(isDeclaration).map((node) => [node.name.getText(source), node])),
  ]),
);

/** Where `name` gets its value: a constant or parameter of the file, else a constant of another API file. */
function declarationOf(name: string, file: string): Declaration | undefined {
  return (
    declarations.get(file)?.get(name) ??
    [...declarations.values()]
      .map((named) => named.get(name))
      .find((node) => node && ts.isVariableDeclaration(node))
  );
}

/** The texts a message's expression can be, or a reason it cannot be read. */
function textsOf(expression: ts.Expression, file: string): string[] | { unread: string } {
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression))
    return [expression.text];
  if (ts.isTemplateExpression(expression)) {
    const template = catalogueIdOfTemplate(expression.getText().slice(1, -1));
    if (PASSED_ON.includes(template)) return [];
    return template.includes('${') ? { unread: expression.getText() } : [template];
  }
  if (ts.isCallExpression(expression) && expression.expression.getText() === 'signatureNameMismatchMessage')
    return [NAME_MISMATCH_ID];
  // A table's entry (TABLE[key], TABLE[key].message): every text of the table.
  let named: ts.Expression = expression;
  while (ts.isPropertyAccessExpression(named) || ts.isElementAccessExpression(named))
    named = named.expression;
  if (!ts.isIdentifier(named)) return { unread: expression.getText() };
  const declaration = declarationOf(named.text, file);
  const value = declaration?.initializer;
  // A constant's value is read where it is declared (its file's own constants first).
  if (value && named === expression) return textsOf(value, value.getSourceFile().fileName);
  if (value && ts.isObjectLiteralExpression(value))
    return [...nodesOf(value)]
      .filter(ts.isStringLiteral)
      .map((literal) => literal.text)
      .filter((text) => text.includes(' '));
  // A parameter without a default passes on what its callers give, which is read at their calls.
  if (declaration && ts.isParameter(declaration)) return [];
  const shared = (contracts as Record<string, unknown>)[named.text];
  return typeof shared === 'string' ? [shared] : { unread: expression.getText() };
}

/** Which argument of a call is a message for the borrower, by what is called. */
const MESSAGE_ARGUMENT: Record<string, number> = { HttpError: 2, stepUpRefusal: 0, 'stepUp.require': 1 };

describe('the API’s messages to borrowers in the portal’s language', () => {
  it('has each in a catalogue', () => {
    const ids = new Set([...SHARED_MESSAGES, ...SIGN_IN_RULES_MESSAGES].map((descriptor) => descriptor.id));
    const missing: string[] = [];
    let read = 0;
    for (const [file, source] of parsed) {
      if (NOT_FOR_BORROWERS.some((part) => file.startsWith(part))) continue;
      for (const node of nodesOf(source)) {
        // Messages kept in constants, whichever call passes them on.
        if (ts.isVariableDeclaration(node) && /^[A-Z_]+_MESSAGE$/.test(node.name.getText())) {
          const texts = node.initializer && textsOf(node.initializer, file);
          if (Array.isArray(texts))
            missing.push(...texts.filter((t) => !ids.has(t)).map((t) => `${file}: ${t}`));
        }
        if (!ts.isNewExpression(node) && !ts.isCallExpression(node)) continue;
        const at = MESSAGE_ARGUMENT[node.expression.getText()];
        const message = at === undefined ? undefined : node.arguments?.[at];
        if (!message) continue;
        const texts = textsOf(message, file);
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
