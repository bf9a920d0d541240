import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import * as contracts from '@customer-core/contracts';
import { SHARED_MESSAGES, inPortalLanguage } from '../src/i18n/shared-messages.ts';
import { i18n } from './support/i18n.ts';

const root = path.resolve(import.meta.dirname, '../../..');
// Every quoted text of the code that writes these messages, as it reads once unescaped.
const writtenTexts = new Set(
  ['packages/contracts/src', 'apps/api/src', 'apps/idp/src'].flatMap((dir) =>
    readdirSync(path.join(root, dir), { recursive: true })
      .map(String)
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) =>
        [...readFileSync(path.join(root, dir, file), 'utf8').matchAll(/'((?:[^'\\\n]|\\.)*)'/g)].map(
          (match) => match[1]!.replace(/\\u2019/g, '\u2019').replace(/\\'/g, "'"),
        ),
      ),
  ),
);

describe('the shared messages in the portal’s language', () => {
  it('says each in English exactly as the schemas and the API write it', () => {
    for (const [english, descriptor] of SHARED_MESSAGES) assert.equal(i18n._(descriptor), english);
  });

  it('holds no message that the schemas and the API no longer write', () => {
    const stale = [...SHARED_MESSAGES]
      .filter(([, descriptor]) => !descriptor.values || Object.keys(descriptor.values).length === 0)
      .map(([english]) => english)
      .filter((english) => !writtenTexts.has(english));
    assert.deepEqual(stale, []);
  });

  it('holds every message and label the shared schemas give a borrower', () => {
    const given = [
      ...Object.entries(contracts)
        .filter(([name, value]) => name.endsWith('_MESSAGE') && typeof value === 'string')
        .map(([, value]) => value as string),
      ...contracts.PASSWORD_RULES.flatMap((rule) => [rule.label, rule.message]),
      contracts.PASSWORDS_DO_NOT_MATCH,
      contracts.ESIGN_CONSENT.title,
      ...contracts.ESIGN_CONSENT.text.split('\n\n'),
    ];
    assert.deepEqual(
      given.filter((english) => !SHARED_MESSAGES.has(english)),
      [],
    );
  });

  it('says the name mismatch with the name in it, and leaves an unknown text as it came', () => {
    const mismatch = contracts.signatureNameMismatchMessage('Ana Ruiz');
    assert.equal(inPortalLanguage(mismatch), mismatch);
    assert.equal(inPortalLanguage('A hosted org’s own rule.'), 'A hosted org’s own rule.');
  });
});
