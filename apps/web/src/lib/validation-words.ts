/**
 * What the procedures' zod schemas say about a form's fields, for people: whether a field must be
 * filled and its bounds (for `required`, and a limit the controls count; `uncut` fields say theirs
 * in a hint), and each refusal as a sentence ("Enter a title", "At most 200 characters") in place
 * of zod's own wording ("Too small: expected string to have >=1 characters"). The console's one file that reads zod's schema
 * classes and issue shapes: the forms go through `fieldRules` and `errorsInWords`.
 */

import { usernameSchema } from '@music/api-router/schemas';
import { z } from 'zod';

/** One field's rules, as its schema states them; bounds only where the schema sets them. */
export interface FieldRules {
  /** Left empty, the field is refused: a text with a least length or a format, or a number. */
  required: boolean;
  /** A text's bounds, in characters (UTF-16 code units, as both zod and `maxLength` count). */
  minLength?: number;
  maxLength?: number;
  /** A number's bounds, and whether it must be whole. */
  min?: number;
  max?: number;
  whole?: boolean;
  /**
   * The limit is said in a hint rather than counted: a password (nobody sees what they type), an
   * account's email or its name. Over-long input is refused in words, as every field's is.
   */
  uncut?: true;
}

/** How a field's refusals are worded: its rules (for "between 1000 and 9999"), and its noun. */
export interface Wording {
  rules?: FieldRules | undefined;
  /** What the field holds, with its article: "a title", "an email address". */
  noun?: string | undefined;
}

/** The schema inside `.optional()`, `.nullable()` and `.default()`, and whether one was there. */
function unwrap(schema: z.ZodType): { inner: z.ZodType; optional: boolean } {
  let inner = schema;
  let optional = false;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable || inner instanceof z.ZodDefault) {
    optional = true;
    inner = inner.unwrap() as z.ZodType;
  }
  return { inner, optional };
}

// zod gives `.int()` the bounds of a safe integer: those are no bounds a person needs to hear.
const bound = (value: number | null): number | undefined =>
  value !== null && Number.isFinite(value) && Math.abs(value) < Number.MAX_SAFE_INTEGER ? value : undefined;

/**
 * A password (its schema says `format: 'password'` in its metadata, as every password field of
 * the API's does), an email, or an account's name (the one schema all usernames use).
 */
function isCredential(schema: z.ZodString | z.ZodStringFormat): boolean {
  return (
    schema === usernameSchema ||
    schema.format === 'email' ||
    z.globalRegistry.get(schema)?.format === 'password'
  );
}

/** The rules of the field `name` of an object schema (none for a field it does not have). */
export function fieldRules(schema: z.ZodType | undefined, name: string): FieldRules {
  const field = schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>)[name] : undefined;
  if (!field) return { required: false };
  const { inner, optional } = unwrap(field);
  if (inner instanceof z.ZodString || inner instanceof z.ZodStringFormat) {
    const minLength = bound(inner.minLength) ?? 0;
    const maxLength = bound(inner.maxLength);
    return {
      required: !optional && (minLength >= 1 || inner.format !== null),
      ...(minLength > 0 ? { minLength } : {}),
      ...(maxLength !== undefined ? { maxLength } : {}),
      ...(isCredential(inner) ? { uncut: true } : {}),
    };
  }
  if (inner instanceof z.ZodNumber) {
    const min = bound(inner.minValue);
    const max = bound(inner.maxValue);
    return {
      required: !optional,
      whole: inner.isInt,
      ...(min !== undefined ? { min } : {}),
      ...(max !== undefined ? { max } : {}),
    };
  }
  return { required: false };
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** "Must be a whole number between 1000 and 9999", from whichever bounds are known. */
function numberInWords(rules: FieldRules | undefined, fallback: { min?: number; max?: number } = {}): string {
  const kind = rules?.whole ? 'a whole number' : 'a number';
  const min = rules?.min ?? fallback.min;
  const max = rules?.max ?? fallback.max;
  if (min !== undefined && max !== undefined) return `Must be ${kind} between ${min} and ${max}`;
  if (min !== undefined) return `Must be ${kind}, ${min} or more`;
  if (max !== undefined) return `Must be ${kind}, ${max} or less`;
  return `Must be ${kind}`;
}

const enter = (noun: string | undefined) => (noun ? `Enter ${noun}` : 'Fill in this field');

const FORMATS: Record<string, string> = {
  email: 'Enter a valid email address',
  url: 'Enter a valid web address, such as https://example.com',
  uuid: 'Choose an entry from the list',
};

/** The parts of a zod issue the words depend on (a parsed issue, or one read back from its message). */
type IssueFacts =
  | { code: 'too_small'; origin: string; minimum: number; exact?: boolean | undefined }
  | { code: 'too_big'; origin: string; maximum: number; exact?: boolean | undefined }
  | { code: 'invalid_type'; expected: string; missing: boolean }
  | { code: 'invalid_format'; format: string; empty: boolean }
  | { code: 'invalid_value' | 'unrecognized_keys' | 'other' };

function factsInWords(facts: IssueFacts, { rules, noun }: Wording): string {
  switch (facts.code) {
    case 'too_small': {
      const { origin, minimum } = facts;
      if (origin === 'string') {
        if (minimum <= 1 && !facts.exact) return enter(noun);
        return facts.exact
          ? `Exactly ${plural(minimum, 'character')}`
          : `At least ${plural(minimum, 'character')}`;
      }
      if (origin === 'array' || origin === 'set') return `Choose at least ${minimum}`;
      return numberInWords(rules, { min: minimum });
    }
    case 'too_big': {
      const { origin, maximum } = facts;
      if (origin === 'string')
        return facts.exact
          ? `Exactly ${plural(maximum, 'character')}`
          : `At most ${plural(maximum, 'character')}`;
      if (origin === 'array' || origin === 'set') return `Choose at most ${maximum}`;
      return numberInWords(rules, { max: maximum });
    }
    case 'invalid_type':
      if (facts.missing && (rules?.required ?? true)) return enter(noun);
      if (facts.expected === 'number' || facts.expected === 'int') {
        return numberInWords(facts.expected === 'int' ? { required: false, ...rules, whole: true } : rules);
      }
      if (facts.expected === 'string') return enter(noun);
      return 'Not a value this field takes';
    case 'invalid_format':
      if (facts.empty && noun) return enter(noun);
      return FORMATS[facts.format] ?? 'Not in the expected format';
    case 'invalid_value':
      return 'Choose one of the options';
    case 'unrecognized_keys':
      return 'Unknown field';
    default:
      return 'Not a value this field takes';
  }
}

/**
 * A zod issue as a sentence. A `custom` issue (a refinement) keeps its message: the schema's
 * author wrote it for people ("Repeated id", "Must not contain control characters").
 */
export function issueInWords(issue: z.core.$ZodIssue, wording: Wording = {}): string {
  switch (issue.code) {
    case 'custom':
      return issue.message;
    case 'too_small':
    case 'too_big': {
      const limit = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
      const facts = { origin: issue.origin, exact: issue.exact };
      return factsInWords(
        issue.code === 'too_small'
          ? { code: 'too_small', ...facts, minimum: limit }
          : { code: 'too_big', ...facts, maximum: limit },
        wording,
      );
    }
    case 'invalid_type':
      return factsInWords(
        {
          code: 'invalid_type',
          expected: issue.expected,
          missing: issue.input === undefined || issue.input === null,
        },
        wording,
      );
    case 'invalid_format':
      return factsInWords(
        { code: 'invalid_format', format: issue.format, empty: issue.input === '' },
        wording,
      );
    case 'invalid_value':
    case 'unrecognized_keys':
      return factsInWords({ code: issue.code }, wording);
    default:
      return factsInWords({ code: 'other' }, wording);
  }
}

// zod's English names of formats (its locale's FormatDictionary), back to the formats.
const FORMAT_NAMES: Record<string, string> = { 'email address': 'email', UUID: 'uuid', URL: 'url' };

/**
 * A message as zod's English locale words an issue, read back into the issue's facts; null for
 * any other message (a service's own, such as "No song with this id").
 */
function factsOfMessage(message: string): IssueFacts | null {
  const sized = /^Too (small|big): expected (\w+) to (?:have|be) (>=|>|<=|<|exactly )(-?[\d.]+)/.exec(
    message,
  );
  if (sized) {
    const [, size, origin = '', adjective = '', count = ''] = sized;
    // An exclusive bound (">0") is the next whole number's inclusive one, for texts and lists.
    const shift = adjective === '>' ? 1 : adjective === '<' ? -1 : 0;
    const limit = Number(count) + (origin === 'number' ? 0 : shift);
    const exact = adjective === 'exactly ';
    return size === 'small'
      ? { code: 'too_small', origin, minimum: limit, exact }
      : { code: 'too_big', origin, maximum: limit, exact };
  }
  const typed = /^Invalid input: expected (\w+), received (\w+)$/.exec(message);
  if (typed) {
    const [, expected = '', received = ''] = typed;
    return { code: 'invalid_type', expected, missing: received === 'undefined' || received === 'null' };
  }
  const format = /^Invalid (email address|UUID|URL)$/.exec(message);
  if (format) return { code: 'invalid_format', format: FORMAT_NAMES[format[1] ?? ''] ?? '', empty: false };
  if (/^Invalid (option: expected one of |input: expected ")/.test(message)) return { code: 'invalid_value' };
  if (/^Unrecognized keys?: /.test(message)) return { code: 'unrecognized_keys' };
  return null;
}

/**
 * A field error's message from the API (a 422's `errors[]`), in words: the API sends zod's own
 * wording for what its schemas refuse, which is read back and worded as the console words it.
 * Any other message is the API's own sentence and is kept.
 */
export function messageInWords(message: string, wording: Wording = {}): string {
  const facts = factsOfMessage(message);
  return facts ? factsInWords(facts, wording) : message;
}

/**
 * A failed parse's issues as field errors in words: dotted path -> the first issue's sentence
 * (`form` for one about the whole object). `nouns` names the fields for "Enter a name".
 */
export function errorsInWords(
  schema: z.ZodType,
  issues: readonly z.core.$ZodIssue[],
  nouns: Readonly<Record<string, string | undefined>> = {},
): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const path = issue.path.join('.') || 'form';
    // Only a field's own issue is worded with its rules: "artistIds.2" is one entry of a list.
    const name = issue.path.length === 1 ? String(issue.path[0]) : undefined;
    const wording = name ? { rules: fieldRules(schema, name), noun: nouns[name] } : {};
    fields[path] ??= issueInWords(issue, wording);
  }
  return fields;
}

/** A text area's counter: how many characters are left of `max`. */
export function charactersLeft(length: number, max: number): string {
  const left = max - length;
  return left >= 0 ? `${plural(left, 'character')} left` : `${plural(-left, 'character')} too many`;
}
