import { LENDER } from './support/dom.ts';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import * as contracts from '@customer-core/contracts';
import { inPortalLanguage } from '../src/i18n/in-portal-language.ts';
import { SHARED_MESSAGES } from '../src/i18n/shared-messages.ts';
import { SIGN_IN_RULES_MESSAGES } from '../src/i18n/sign-in-rules-messages.ts';
import { catalogueIdOfTemplate } from './support/api-templates.ts';
import { i18n } from './support/i18n.ts';

const root = path.resolve(import.meta.dirname, '../../..');
// Every quoted text of the code that writes these messages, as it reads once unescaped.
const writtenTexts = new Set(
  ['packages/contracts/src', 'apps/api/src', 'apps/idp/src'].flatMap((dir) =>
    readdirSync(path.join(root, dir), { recursive: true })
      .map(String)
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) => {
        const source = readFileSync(path.join(root, dir, file), 'utf8');
        return [
          ...[...source.matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"/g)].map((match) =>
            (match[1] ?? match[2]!).replace(/\\u2019/g, '\u2019').replace(/\\'/g, "'"),
          ),
          ...[...source.matchAll(/`([^`]*)`/g)].map((match) => catalogueIdOfTemplate(match[1]!)),
        ];
      }),
  ),
);
// The messages the shared schemas build from their constants (and the API's passkey name rule).
const {
  MAX_PASSWORD_LENGTH,
  MAX_PASSKEY_NAME_LENGTH,
  MIN_AMOUNT_REQUESTED,
  MAX_AMOUNT_REQUESTED,
  wholeDollars,
} = contracts;
const built = [
  `Password must be at most ${MAX_PASSWORD_LENGTH} characters.`,
  `Use at most ${MAX_PASSWORD_LENGTH} characters.`,
  `Use ${MAX_PASSKEY_NAME_LENGTH} characters or fewer.`,
  `The smallest loan is ${wholeDollars(MIN_AMOUNT_REQUESTED)}.`,
  `The largest loan is ${wholeDollars(MAX_AMOUNT_REQUESTED)}.`,
  ...contracts.PASSWORD_RULES.flatMap((rule) => [rule.label, rule.message]),
  ...contracts.ESIGN_CONSENT.text.split('\n\n'),
];
const catalogued = [...SHARED_MESSAGES, ...SIGN_IN_RULES_MESSAGES];
const ids = new Set(catalogued.map((descriptor) => descriptor.id));

describe('the shared messages in the portal’s language', () => {
  it('knows each by its English, exactly as the schemas and the API write it', () => {
    for (const descriptor of catalogued) assert.equal(descriptor.message, descriptor.id);
  });

  it('puts every message of the sign-in rules in the sign-in catalogue, which the form needs before the password leaves', () => {
    const refused = [
      { email: '', password: '' },
      { email: 'dana@', password: 'short' },
      { email: `${'a'.repeat(250)}@example.com`, password: 'x'.repeat(contracts.MAX_PASSWORD_LENGTH + 1) },
      { email: 'dana\u0000@example.com', password: 'long\u0000enough' },
    ];
    const given = new Set(
      refused.flatMap(
        (input) => contracts.SignInSchema.safeParse(input).error?.issues.map((i) => i.message) ?? [],
      ),
    );
    assert.equal(given.size, 6);
    assert.deepEqual([...given].sort(), SIGN_IN_RULES_MESSAGES.map((descriptor) => descriptor.id).sort());
  });

  it('holds no message that the schemas and the API no longer write', () => {
    const stale = [...ids].filter(
      (id) => !writtenTexts.has(id) && !built.includes(id) && !id.includes('{accountName}'),
    );
    assert.deepEqual(stale, []);
  });

  it('holds every message and label the shared schemas give a borrower', () => {
    const given = [
      ...Object.entries(contracts)
        .filter(([name, value]) => name.endsWith('_MESSAGE') && typeof value === 'string')
        .map(([, value]) => value as string),
      contracts.PASSWORDS_DO_NOT_MATCH,
      contracts.ESIGN_CONSENT.title,
      contracts.UNKNOWN_DEVICE,
      ...Object.values(contracts.LOAN_PURPOSES),
      ...Object.values(contracts.SESSION_METHOD_LABELS),
      ...Object.values(contracts.SESSION_ENDED_BY_LABELS),
      ...Object.values(contracts.SECOND_FACTOR_LABELS),
      ...Object.values(contracts.SECURITY_EVENT_LABELS),
      ...(['second_factor_added', 'second_factor_removed'] as const).map((kind) =>
        contracts.securityEventLabel({ kind, factor: 'passkey' }),
      ),
      ...built,
    ];
    assert.deepEqual(
      given.filter((english) => !ids.has(english)),
      [],
    );
  });

  it('shows a catalogued message in the language chosen, its varying parts filled in, and anything else as it came', () => {
    const mismatch = contracts.signatureNameMismatchMessage('Ana Ruiz');
    const limited = `Please try again in 15 minutes, or call ${LENDER.name} at ${LENDER.supportPhone}.`;
    const spanish = {
      [contracts.PASSWORDS_DO_NOT_MATCH]: 'Las contraseñas no coinciden.',
      [mismatch.replace('Ana Ruiz', '{accountName}')]: 'Escriba su nombre: {accountName}.',
      'Please try again in {minutes} minutes, or call {lenderName} at {supportPhone}.':
        'Vuelva a intentarlo en {minutes} minutos o llame a {lenderName} al {supportPhone}.',
    };
    i18n.loadAndActivate({ locale: 'es-US', messages: spanish });
    try {
      assert.equal(inPortalLanguage(contracts.PASSWORDS_DO_NOT_MATCH), 'Las contraseñas no coinciden.');
      assert.equal(inPortalLanguage(mismatch), 'Escriba su nombre: Ana Ruiz.');
      assert.equal(
        inPortalLanguage(limited),
        `Vuelva a intentarlo en 15 minutos o llame a ${LENDER.name} al ${LENDER.supportPhone}.`,
      );
      // Another lender's name is not this portal's: the message is shown as it came.
      assert.equal(
        inPortalLanguage(limited.replace(LENDER.name, 'Other Bank')),
        limited.replace(LENDER.name, 'Other Bank'),
      );
      assert.equal(inPortalLanguage('A hosted org’s own rule {1}.'), 'A hosted org’s own rule {1}.');
    } finally {
      i18n.loadAndActivate({ locale: 'en-US', messages: {} });
    }
  });
});
