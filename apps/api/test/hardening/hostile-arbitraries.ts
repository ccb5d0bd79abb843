import fc from 'fast-check';

/**
 * What hostile-properties.test.ts throws at every operation: hostile values (NUL, lone
 * surrogates, SQL and LIKE metacharacters, huge, negative and fractional numbers, wrong types),
 * a valid example mutated with them, path ids, how a body travels on the wire, and the
 * encoding of all that into paths and query strings.
 */

type Input = Record<string, unknown>;

const nastyStrings = fc.constantFrom(
  '\u0000',
  'a\u0000b',
  '%',
  '_',
  '\\',
  '%_\\%',
  "' or '1'='1",
  "'; drop table users; --",
  '../../etc/passwd',
  '\uFFFF',
  '\uD800',
  'a\uDFFFb',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '',
  ' ',
  'null',
  'true',
  '[]',
  '{}',
  '🎵',
  'x'.repeat(3_000),
  'Ａ',
  'İstanbul',
  'ß',
  '\u202etxt',
  '<script>alert(1)</script>',
  '\u0024{jndi:ldap://127.0.0.1/a}',
  '\r\nX-Injected: 1',
  '\t',
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-7FFF-BFFF-FFFFFFFFFFFF',
);
const hostileString = fc.oneof(
  { weight: 4, arbitrary: nastyStrings },
  { weight: 2, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.uuid() },
);
const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(
    0,
    -1,
    1,
    100,
    101,
    86_400,
    86_401,
    1e308,
    -1e308,
    2 ** 31,
    2 ** 53 + 2,
    2 ** 63,
    0.5,
    1e-300,
  ),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(fc.oneof(hostileString, fc.uuid()), { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);
const extraKey = fc.oneof(
  fc.constantFrom(
    'id',
    'createdAt',
    'updatedAt',
    '__proto__',
    'constructor',
    'role',
    'userId',
    'password_hash',
    '',
  ),
  fc.string({ maxLength: 10 }),
);

/** `arbitrary`'s value one time in `oneIn`, else null. */
function sometimes<T>(arbitrary: fc.Arbitrary<T>, oneIn: number): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });
}

/** An object with own keys exactly as given (even `__proto__`), for JSON.stringify. */
function objectOf(entries: Array<[string, unknown]>): Input {
  const out: Input = {};
  for (const [key, value] of entries) {
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The example with keys dropped, replaced and added; now and then no object at all. */
export function mutated(example: Input): fc.Arbitrary<unknown> {
  const keys = Object.keys(example);
  const record = fc
    .record({
      drop: keys.length
        ? fc.subarray(keys, { maxLength: Math.min(2, keys.length) })
        : fc.constant([] as string[]),
      replace: keys.length
        ? fc.array(fc.tuple(fc.constantFrom(...keys), hostileValue), { maxLength: 2 })
        : fc.constant([] as Array<[string, unknown]>),
      extra: sometimes(fc.array(fc.tuple(extraKey, hostileValue), { minLength: 1, maxLength: 2 }), 4),
    })
    .map(({ drop, replace, extra }) => {
      const entries = new Map(Object.entries(example).filter(([key]) => !drop.includes(key)));
      for (const [key, value] of replace) entries.set(key, value);
      for (const [key, value] of extra ?? []) entries.set(key, value);
      return objectOf([...entries]);
    });
  return fc.oneof(
    { weight: 8, arbitrary: record },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.constant(example) },
  );
}

/** A path id: a real one, one that names nothing, or a hostile string. */
export function pathId(pool: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...pool) },
    { weight: 1, arbitrary: fc.constantFrom(...pool).map((id) => id.toUpperCase()) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 3, arbitrary: hostileString },
  );
}

/** How the body travels on the wire. */
export const wire = fc.record({
  truncateAt: sometimes(fc.nat(), 8),
  contentType: sometimes(
    fc.constantFrom(
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=utf-16',
      '',
    ),
    8,
  ),
});

export function encodeSegment(value: string): string {
  // Lone surrogates cannot be percent-encoded as UTF-8: they travel as U+FFFD, like a browser sends them.
  return encodeURIComponent(
    value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'),
  );
}

export function queryString(fields: Input): string {
  return Object.entries(fields)
    .flatMap(([key, value]) => {
      const values = Array.isArray(value) ? value : [value];
      return values.map(
        (v) =>
          `${encodeSegment(key)}=${encodeSegment(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))}`,
      );
    })
    .join('&');
}
