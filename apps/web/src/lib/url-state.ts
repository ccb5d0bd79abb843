import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useMemo, useRef, useState } from 'react';
import { followedLink } from '@/lib/link-click';

/**
 * A list screen's view (its search, filters, sort, page and tab) kept in the address's query, so
 * a reload or a shared link shows the same view and Back steps through it. A screen declares its
 * parameters once (a `QuerySchema`); reading takes what the address holds, falling back for
 * what is absent or malformed (a hand-edited or old link never breaks the screen); writing
 * leaves out what equals its fallback, so the plain address stays plain.
 */

/** One query parameter: its value when absent or malformed, how it reads and how it is written. */
export interface Param<T> {
  fallback: T;
  /** The value a raw parameter holds, or undefined when it is not a valid one. */
  parse(raw: string): T | undefined;
  format(value: T): string;
}

export type QuerySchema = Record<string, Param<string> | Param<number>>;

export type QueryValues<S extends QuerySchema> = { [K in keyof S]: S[K]['fallback'] };

/** Text, trimmed; `valid` may refuse some (the procedure's own schema for the field, say). */
function text({ fallback = '', valid }: { fallback?: string; valid?: (value: string) => boolean } = {}) {
  return {
    fallback,
    parse: (raw) => {
      const value = raw.trim();
      return valid && !valid(value) ? undefined : value;
    },
    format: (value) => value,
  } satisfies Param<string>;
}

/** A whole number between `min` and `max` (inclusive), written in digits only. */
function integer({
  fallback,
  min = 1,
  max = Number.MAX_SAFE_INTEGER,
}: {
  fallback: number;
  min?: number;
  max?: number;
}) {
  return {
    fallback,
    parse: (raw) => {
      if (!/^\d{1,15}$/.test(raw)) return undefined;
      const value = Number(raw);
      return value >= min && value <= max ? value : undefined;
    },
    format: (value) => String(value),
  } satisfies Param<number>;
}

/** One of a closed set of values (a tab, a page size): anything else is the fallback. */
function oneOf<const V extends string | number>(values: readonly V[], fallback: NoInfer<V>): Param<V> {
  return {
    fallback,
    parse: (raw) => values.find((value) => String(value) === raw),
    format: (value) => String(value),
  };
}

/** The kinds of parameters a screen declares its query with. */
export const param = { text, integer, oneOf };

/** Reads a screen's values from a query (`location.search`, Next's search params, a string). */
export function readQuery<S extends QuerySchema>(
  schema: S,
  query: string | { get(name: string): string | null },
): QueryValues<S> {
  const params = typeof query === 'string' ? new URLSearchParams(query) : query;
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(schema) as Array<[string, Param<unknown>]>) {
    const raw = params.get(name);
    const parsed = raw === null ? undefined : spec.parse(raw);
    values[name] = parsed === undefined ? spec.fallback : parsed;
  }
  return values as QueryValues<S>;
}

/**
 * The query (without `?`) of `values`: a value equal to its fallback is left out; parameters the
 * schema does not name are kept from `base`, ahead of the schema's own in the schema's order.
 */
export function writeQuery<S extends QuerySchema>(
  schema: S,
  values: QueryValues<S>,
  base: string | URLSearchParams = '',
): string {
  const params = new URLSearchParams(base);
  for (const [name, spec] of Object.entries(schema) as Array<[string, Param<unknown>]>) {
    params.delete(name);
    const value = (values as Record<string, unknown>)[name];
    const written = spec.format(value);
    if (written !== '' && written !== spec.format(spec.fallback)) params.append(name, written);
  }
  return params.toString();
}

/** One key of a list's `sort` (version 1.1): a field, ascending unless `descending`. */
export interface SortKey {
  field: string;
  descending: boolean;
}

/** The keys of a `sort` parameter: `title,-releaseYear` is title ascending, then year descending. */
export function parseSort(sort: string): SortKey[] {
  return sort
    .split(',')
    .filter(Boolean)
    .map((part) =>
      part.startsWith('-') ? { field: part.slice(1), descending: true } : { field: part, descending: false },
    );
}

/** How a list is ordered by `field`, for `aria-sort`: only the first key names a direction. */
export function sortDirection(sort: string, field: string): 'ascending' | 'descending' | undefined {
  const [first] = parseSort(sort);
  if (first?.field !== field) return undefined;
  return first.descending ? 'descending' : 'ascending';
}

/** The sort a click on `field`'s header asks for: ascending first, then it turns around. */
export function toggleSort(sort: string, field: string): string {
  return sortDirection(sort, field) === 'ascending' ? `-${field}` : field;
}

/**
 * A screen's values from the address, and `update(changes, how)` to change some of them:
 * 'push' (the default) adds a step Back returns to (a page, a sort, a tab); 'replace' changes
 * the current step (typing, so Back does not step through keystrokes). Call with a schema that
 * keeps its identity between renders (a module constant, or memoised).
 */
export function useUrlState<S extends QuerySchema>(schema: S) {
  const router = useRouter();
  const pathname = usePathname();
  const current = useSearchParams().toString();
  // The address the last update asked for, until the router has it: the screen shows it at once
  // (no wait for the router's round trip), and a second update meanwhile (a second click on a
  // header) builds on it rather than on the address the router has not left yet. Any other
  // change of the address (Back, a link) wins over it.
  const [pending, setPending] = useState<{ from: string; to: string } | null>(null);
  // Once the address has moved, the request is done with (so Back to `from` later shows `from`).
  if (pending && pending.from !== current) setPending(null);
  const shown = pending?.from === current ? pending.to : current;
  const values = useMemo(() => readQuery(schema, shown), [schema, shown]);
  function update(changes: Partial<QueryValues<S>>, how: 'push' | 'replace' = 'push') {
    const next = writeQuery(schema, { ...values, ...changes }, shown);
    if (next === shown) return;
    setPending({ from: current, to: next });
    const href = next ? `${pathname}?${next}` : pathname;
    if (how === 'replace') router.replace(href, { scroll: false });
    else router.push(href, { scroll: false });
  }
  return [values, update] as const;
}

/**
 * The text of a box whose value lives in the address (a search): typing changes the text at once,
 * and `commit` writes it, trimmed, after `delay` ms without typing (or at once through the
 * `commitNow` returned, with no delay given). When the address's value changes by another way
 * (Back, a link), the text follows it; the address catching up with what was typed does not
 * undo what was typed meanwhile.
 *
 * `commit` is told how to write it into the history: one typing is one step, so the first write
 * of a typing adds a step ('push': Back returns to the page as it was before the search) and the
 * next ones change that step ('replace': Back does not step through the keystrokes). A typing
 * ends when the box is left (`endTyping`, on blur) or when the address's value changes by
 * another way.
 */
export function useUrlText(
  value: string,
  commit: (text: string, how: 'push' | 'replace') => void,
  delay?: number,
) {
  const [text, setText] = useState(value);
  const [seen, setSeen] = useState(value);
  const [written, setWritten] = useState(value);
  // Whether this typing has written a step already (see above).
  const [typing, setTyping] = useState(false);
  if (value !== seen) {
    setSeen(value);
    if (value !== written) {
      setText(value);
      setWritten(value);
      setTyping(false);
    }
  }
  const commitRef = useRef(commit);
  useEffect(() => {
    commitRef.current = commit;
  });
  // A link to another page followed while a commit waits: the page stays mounted until the next
  // one has loaded, and the commit (a navigation to this list's address) would bring the user
  // back here. Heard in the bubble phase, so a link held back (unsaved edits, `guardLinks`) or
  // opened elsewhere does not count.
  const leaving = useRef(false);
  useEffect(() => {
    const follow = (event: MouseEvent) => {
      const to = followedLink(event);
      if (to && to.pathname !== window.location.pathname) leaving.current = true;
    };
    document.addEventListener('click', follow);
    return () => document.removeEventListener('click', follow);
  }, []);
  const commitNow = (next: string) => {
    const trimmed = next.trim();
    if (trimmed === written) return;
    setWritten(trimmed);
    setTyping(true);
    commitRef.current(trimmed, typing ? 'replace' : 'push');
  };
  useEffect(() => {
    const next = text.trim();
    if (delay === undefined || next === written) return;
    const timer = setTimeout(() => {
      if (leaving.current) return;
      setWritten(next);
      setTyping(true);
      commitRef.current(next, typing ? 'replace' : 'push');
    }, delay);
    return () => clearTimeout(timer);
  }, [text, written, delay, typing]);
  // Not a write of its own: the blur may be the start of a click on a link (see `leaving`).
  const endTyping = () => setTyping(false);
  return { text, setText, commitNow, endTyping };
}
