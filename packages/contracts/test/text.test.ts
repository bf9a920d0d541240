import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import * as contracts from '../src/index.js';
import { findControlCharacter, hasControlCharacter, singleLineText } from '../src/index.js';

// Every schema a client's input is validated with: requests, route parameters and the forms.
const inputSchemas = Object.entries(contracts).filter(
  ([name, value]) =>
    value instanceof z.ZodType &&
    (/(Request|Params)Schema$/.test(name) ||
      ['StartApplicationSchema', 'SignInSchema', 'PasswordSetSchema', 'EmailSchema'].includes(name)),
);

type Node = { type?: unknown; pattern?: string; format?: string; enum?: unknown[]; [key: string]: unknown };

/** Every string node of a JSON Schema, with its path. */
function stringsOf(node: unknown, path: string): Array<[string, Node]> {
  if (!node || typeof node !== 'object') return [];
  const n = node as Node;
  const own: Array<[string, Node]> = n.type === 'string' ? [[path, n]] : [];
  return [
    ...own,
    ...Object.entries(n).flatMap(([key, child]) =>
      Array.isArray(child)
        ? child.flatMap((c, i) => stringsOf(c, `${path}.${key}[${i}]`))
        : stringsOf(child, `${path}.${key}`),
    ),
  ];
}

describe('control characters', () => {
  it('are refused in single-line text: C0, DEL, C1 and lone surrogates; other text passes', () => {
    for (const bad of [
      '\u0000',
      'a\u0000b',
      '\t',
      '\n',
      '\r',
      '\u001b',
      '\u007f',
      '\u0085',
      '\u009f',
      '\ud800',
      'x\udfff',
    ])
      assert.ok(hasControlCharacter(bad), JSON.stringify(bad));
    for (const good of ['', 'Zoë Nguyễn', "O'Brien & Sons, Inc.", '😀', '\u00a0', 'ＡＢＣ'])
      assert.ok(!hasControlCharacter(good), good);
    assert.equal(singleLineText().safeParse('Acme\u0000').success, false);
  });

  it('keep tab and line breaks in multi-line text, and nothing else', () => {
    assert.ok(!hasControlCharacter('line one\r\n\tline two', { multiLine: true }));
    for (const bad of ['\u0000', '\u000b', '\u000c', '\u001b', '\u007f', '\u0085', '\ud800'])
      assert.ok(hasControlCharacter(bad, { multiLine: true }), JSON.stringify(bad));
  });

  it('are found anywhere in a parsed body, keys included', () => {
    assert.equal(findControlCharacter({ a: [{ b: 'ok' }, { c: 'x\u0000' }] }), 'a.1.c');
    assert.equal(findControlCharacter({ ['k\u0000']: 1 }), 'k\u0000');
    assert.equal(findControlCharacter({ a: 'line\nbreak', n: 1, t: true, z: null }), undefined);
  });

  it('are refused by every string field of every input schema (each is built from the shared rule)', () => {
    assert.ok(inputSchemas.length >= 20, `found ${inputSchemas.length} input schemas`);
    const unguarded: string[] = [];
    for (const [name, schema] of inputSchemas) {
      const json = z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' });
      for (const [path, node] of stringsOf(json, name)) {
        // A format (uuid, date) or an enum admits no control character either.
        if (node.format || node.enum) continue;
        const patterns = [node.pattern, ...((node.allOf as Node[] | undefined) ?? []).map((n) => n.pattern)];
        if (!patterns.some((p) => p && !new RegExp(p, 'u').test('a\u0000b'))) unguarded.push(path);
      }
    }
    assert.deepEqual(unguarded, []);
  });
});
