import {
  isFile,
  wellShapedValue,
  type HostileRequest,
  type JsonSchema,
  type KnownValues,
  type Random,
  type Target,
} from './hostile-requests.js';

// Shapes every route is tried with, each once, whatever the fuzz's seed: JSON nested far deeper than
// any form (a recursive walk of it overflows the stack), and paging cursors and dates that no clock or
// database can hold. The seeded fuzz spreads its requests over routes and shapes at random; these
// shapes once answered 500, so no route is left to chance with them.

/** JSON text nested `depth` levels deep, written as text: JSON.stringify would itself recurse. */
export function nestedJson(depth: number, shape: 'arrays' | 'objects' | 'mixed'): string {
  const [open, close] = { arrays: ['[', ']'], objects: ['{"":', '}'], mixed: ['[{"":', '}]'] }[shape];
  const levels = shape === 'mixed' ? Math.ceil(depth / 2) : depth;
  return `${open!.repeat(levels)}"deep"${close!.repeat(levels)}`;
}

/**
 * Bodies nested as deep as the route's body limit lets them (20,000 levels at most: 40 KB of arrays),
 * one merely deep, and a well-shaped body with one deep field.
 */
function deepBodies(limit: number, wellShaped: unknown): string[] {
  const levels = (bytesPerLevel: number, room = limit) =>
    Math.min(20_000, Math.floor((room - 10) / bytesPerLevel));
  const marker = '\u2063deep value\u2063';
  const shaped =
    wellShaped !== null && typeof wellShaped === 'object' && !Array.isArray(wellShaped) ? wellShaped : {};
  const around = JSON.stringify({ ...shaped, [Object.keys(shaped)[0] ?? 'field']: marker });
  return [
    nestedJson(levels(2), 'arrays'),
    nestedJson(levels(5), 'objects'),
    nestedJson(1_000, 'mixed'),
    around.replace(JSON.stringify(marker), nestedJson(levels(3.5, limit - around.length), 'mixed')),
  ];
}

const ID = '6f1c1bde-3b7a-4c55-9a4e-2f8d1c7e9b10';
/** Paging cursors a client can forge: out-of-range times, huge numbers, parts missing or malformed. */
export const ODD_CURSORS = [
  '2d2mh7dt6o0.x', // JavaScript's last instant, +275760-09-13
  `2d2mh7dt6o0.${ID}`, // the same with a well-formed id: a date JavaScript holds, past year 9999
  `2d2mh7dt6o1.${ID}`, // a millisecond past it
  `zzzzzzzzzzzz.${ID}`, // past the safe integers
  `${'9'.repeat(400)}.${ID}`,
  `0.${ID}`,
  `-1.${ID}`,
  '1e309.x',
  `lq3x8k0.${'-'.repeat(36)}`, // the right shape, an id of dashes
  'lq3x8k0.',
  `.${ID}`,
  'lq3x8k0',
  `lq3x8k0.${ID}.${ID}`,
  'eyJwdWJsaXNoZWQiOjB9', // base64 JSON, as other APIs' cursors are
  'eyJ+/==',
  '!!!',
];

/** Dates and instants out of range, impossible or odd: year 0 is JavaScript's, never PostgreSQL's. */
export const ODD_DATES = [
  '0000-01-01T00:00:00Z',
  '0000-01-01',
  '0001-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '9999-12-31',
  '+275760-09-13T00:00:00Z',
  '-000001-01-01T00:00:00Z',
  '+010000-01-01T00:00:00Z',
  '2026-02-30T00:00:00Z',
  '2026-02-30',
  '2026-13-01T00:00:00Z',
  '2026-01-01T24:00:00Z',
  '2026-01-01T00:00:00+99:99',
  '1970-01-01T00:00:00Z',
  '',
  `2026-01-01T00:00:00.${'0'.repeat(5_000)}Z`,
];
const ODD_VALUES = [...ODD_CURSORS, ...ODD_DATES];

/** The query names paging and time windows go by, tried where a route declares no query of its own. */
const PAGING_NAMES = ['after', 'since', 'until'];

export interface SweepContext {
  /** For well-shaped values (which enum member, which number): a fixed seed keeps the sweep the same. */
  random: Random;
  known: KnownValues;
  /** Header sets a request may carry: none, a borrower's token, the operators' secret… */
  credentials: ReadonlyArray<Record<string, string>>;
  /** The header set a plain GET of the target is let through with (asked before the sweep). */
  accepted(target: Target): Record<string, string>;
  /**
   * Whether a route that declares no query is tried one paging name at a time (where routes read
   * their query by hand: the identity provider's Okta API), or with all of them at once (where an
   * undeclared query is never read).
   */
  undeclaredOneByOne(target: Target): boolean;
  /** The server's body limit, for routes without their own: deep bodies are made to fit it. */
  bodyLimit: number;
}

/** Routes, not the portal's static files. */
export const isRoute = (target: Target) => !isFile(target) && target.method !== 'HEAD';

/** The path with known values for its parameters. */
export function pathOf(pattern: string, known: KnownValues): string {
  return pattern
    .replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(known.byName[name] ?? 'value'))
    .replace(/\*$/, '');
}

/** The query's required fields, well shaped: optional ones left out so that none masks the one tried. */
function requiredQuery(target: Target, context: SweepContext): Record<string, string> {
  const schema = target.query;
  const required = new Set(schema?.required ?? []);
  return Object.fromEntries(
    Object.entries(schema?.properties ?? {})
      .filter(([name]) => required.has(name))
      .map(([name, field]) => [name, String(wellShapedValue(field, name, context.random, context.known))]),
  );
}

const withQuery = (path: string, fields: Record<string, string> | Array<[string, string]>) => {
  const search = new URLSearchParams(fields).toString();
  return search ? `${path}?${search}` : path;
};

/** Where date fields are in a body schema, as paths of property names. */
function datePaths(schema: JsonSchema | undefined, at: string[] = []): string[][] {
  if (!schema) return [];
  if (schema.format === 'date' || schema.format === 'date-time') return [at];
  return [
    ...Object.entries(schema.properties ?? {}).flatMap(([key, value]) => datePaths(value, [...at, key])),
    ...(schema.anyOf ?? []).flatMap((option) => datePaths(option, at)),
  ];
}

function setAt(value: unknown, path: string[], leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  const [key, ...rest] = path as [string, ...string[]];
  const object = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  return { ...object, [key]: setAt(object[key], rest, leaf) };
}

const json = { 'content-type': 'application/json' };

/** The requests of the sweep, for the routes among the targets. */
export function shapeSweep(targets: readonly Target[], context: SweepContext): HostileRequest[] {
  const requests: HostileRequest[] = [];
  const { credentials, known, random } = context;
  for (const target of targets.filter(isRoute)) {
    const path = pathOf(target.pattern, known);

    if (target.method === 'GET') {
      const headers = context.accepted(target);
      const base = requiredQuery(target, context);
      const declared = Object.keys(target.query?.properties ?? {});
      if (declared.length > 0 || context.undeclaredOneByOne(target)) {
        for (const name of declared.length > 0 ? declared : PAGING_NAMES)
          for (const value of ODD_VALUES)
            requests.push({ method: 'GET', path: withQuery(path, { ...base, [name]: value }), headers });
      } else {
        // Never read: each request carries three of the values at once.
        for (let i = 0; i < ODD_VALUES.length; i += PAGING_NAMES.length)
          requests.push({
            method: 'GET',
            path: withQuery(
              path,
              PAGING_NAMES.map((name, n): [string, string] => [
                name,
                ODD_VALUES[(i + n) % ODD_VALUES.length]!,
              ]),
            ),
            headers,
          });
      }
      continue;
    }

    // A body: deep ones, each with another of the credentials.
    const wellShaped = target.oauth ? {} : wellShapedValue(target.body, '', random, known);
    deepBodies(target.bodyLimit ?? context.bodyLimit, wellShaped).forEach((body, i) =>
      requests.push({
        method: target.method,
        path,
        headers: { ...credentials[i % credentials.length], ...json },
        body,
      }),
    );

    // A date field with each odd date, with every credential: the route's own is not known here.
    for (const at of datePaths(target.body))
      for (const date of ODD_DATES)
        for (const headers of credentials)
          requests.push({
            method: target.method,
            path,
            headers: { ...headers, ...json },
            body: JSON.stringify(setAt(wellShaped, at, date)),
          });
  }
  return requests;
}
