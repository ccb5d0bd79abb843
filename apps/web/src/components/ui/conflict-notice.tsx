'use client';

import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui';
import { toProblem } from '@/lib/errors';
import { etagOf } from '@/lib/etag';

/** A field of a record as the conflict notice names and shows it. */
export interface ConflictField<T> {
  label: string;
  value: (record: T) => unknown;
  /** The value in words; without it, as text ("none" when empty). */
  show?: (value: never) => string;
  /**
   * The form does not send this field (a playlist's songs, kept by its details form): a change
   * to it alone loses nothing, so the form saves again over it without asking.
   */
  kept?: true;
}

export interface Change {
  label: string;
  before: string;
  after: string;
  kept?: true;
}

const asText = (value: unknown) =>
  value === null || value === undefined || value === '' ? 'none' : String(value);

/** The fields whose values differ between the record the form started from and the current one. */
export function changesBetween<T>(fields: readonly ConflictField<T>[], before: T, current: T): Change[] {
  return fields.flatMap((field) => {
    const [a, b] = [field.value(before), field.value(current)];
    if (JSON.stringify(a) === JSON.stringify(b)) return [];
    const show = (field.show ?? asText) as (value: unknown) => string;
    const [was, now] = [show(a), show(b)];
    // Same words, other values (the same number of songs, other songs): still say it changed.
    const after = was === now ? `${now} (changed)` : now;
    return [{ label: field.label, before: was, after, ...(field.kept && { kept: true as const }) }];
  });
}

/** Saves in a row the form makes by itself, each after a 412 that touched none of its fields. */
const MAX_RESAVES = 3;

interface Version<T> {
  record: T;
  tag: string | undefined;
}

/**
 * An edit form's optimistic lock (version 1.1). `context` goes into the edit mutation's
 * `trpc.context`: the link sends its `ifMatch`, the tag of the record the form works from, as
 * If-Match. The object is the same on every render and the request reads it when it is made, so
 * `overwrite()` can change the tag and the form save again at once. `onError` goes into the
 * mutation's options: on a 412 it fetches the current record (not into the query cache, which
 * would redraw the form and lose what was typed) and keeps what changed for the notice.
 * When none of the fields the form sends changed (only a kept one, such as the songs of a playlist
 * edited on the page a moment before, or nothing but the time of a save), there is nothing to
 * lose: the form works from the current record and saves again by itself (`retryWith`).
 */
export function useEditConflict<T>(
  record: T | null,
  fetchCurrent: () => Promise<T>,
  fields: readonly ConflictField<T>[],
) {
  const [version, setVersion] = useState<Version<T> | null>(record && { record, tag: undefined });
  const [conflict, setConflict] = useState<(Version<T> & { changes: Change[] }) | null>(null);
  const [checking, setChecking] = useState(false);
  const context = useRef<{ ifMatch?: string }>({}).current;
  // The version worked from, as set (a tag computed for an earlier one must not replace its own).
  const latest = useRef(version);
  const resave = useRef<(() => void) | null>(null);
  const resaves = useRef(0);

  useEffect(() => {
    if (!version || version.tag !== undefined) return;
    void etagOf(version.record).then((tag) => {
      if (!tag || latest.current !== version) return;
      const tagged = { ...version, tag };
      latest.current = tagged;
      context.ifMatch = tag;
      setVersion(tagged);
    });
  }, [version, context]);

  async function onError(error: unknown) {
    const base = latest.current;
    if (!base || toProblem(error).code !== 'PRECONDITION_FAILED') return;
    setChecking(true);
    try {
      const current = await fetchCurrent();
      const changes = changesBetween(fields, base.record, current);
      const tag = await etagOf(current);
      if (changes.every((change) => change.kept) && resave.current && resaves.current < MAX_RESAVES) {
        resaves.current += 1;
        workFrom({ record: current, tag });
        resave.current();
        return;
      }
      setConflict({ record: current, tag, changes: changes.filter((change) => !change.kept) });
    } catch {
      // Gone or unreachable: the form shows the 412 in words ("Reload to see their changes").
    } finally {
      setChecking(false);
    }
  }

  /** Work from `next` from now on: its tag goes with the next save (none until it is known). */
  function workFrom(next: Version<T>) {
    if (next.tag === undefined) delete context.ifMatch;
    else context.ifMatch = next.tag;
    latest.current = next;
    setVersion(next);
    setConflict(null);
  }

  function adopt(): T | null {
    if (!conflict) return null;
    workFrom({ record: conflict.record, tag: conflict.tag });
    return conflict.record;
  }

  return {
    context,
    onError,
    conflict,
    /** While the current record is fetched, and while the notice shows, it replaces the 412's words. */
    hidesError: checking || conflict !== null,
    /** "Reload their version": the current record, for the form to take its values. */
    reload: adopt,
    /** "Save mine anyway": the form saves again right after, with the current record's tag. */
    overwrite: adopt,
    /** After a save the form works from the saved record (a form left open saves over its own). */
    saved: (saved: T) => {
      resaves.current = 0;
      workFrom({ record: saved, tag: undefined });
    },
    /** The form's save (given on each render), for saving again after a 412 that changed none of its fields. */
    retryWith: (save: () => void) => {
      resave.current = save;
    },
  };
}

/**
 * Someone saved the record after this form opened it (a 412): what changed since, and the two
 * ways on, taking their version or saving over it.
 */
export function ConflictNotice({
  noun,
  changes,
  onReload,
  onOverwrite,
  busy,
}: {
  noun: string;
  changes: readonly Change[];
  onReload: () => void;
  onOverwrite: () => void;
  busy: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  // Where the keyboard continues from: the notice, above the two buttons that answer it.
  useEffect(() => ref.current?.focus(), []);
  return (
    <div ref={ref} tabIndex={-1} className="notice notice-error conflict-notice" role="alert">
      <p>
        <strong>Someone changed this {noun} while you were editing.</strong>
      </p>
      {changes.length > 0 ? (
        <>
          <p>What they changed (as you opened it → now):</p>
          <ul>
            {changes.map((change) => (
              <li key={change.label}>
                {change.label}: <del>{change.before}</del> → <ins>{change.after}</ins>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p>None of the fields in this form changed.</p>
      )}
      <div className="dialog-actions">
        <Button onClick={onReload}>Reload their version</Button>
        <Button variant="primary" busy={busy} onClick={onOverwrite}>
          Save mine anyway
        </Button>
      </div>
    </div>
  );
}
