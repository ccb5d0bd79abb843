'use client';

import Link from 'next/link';
import { type ChangeEvent, useEffect, useId, useRef, useState } from 'react';
import { ImportRun, useImportRun } from '@/app/(console)/songs/_components/import-run';
import { PageHeader } from '@/components/shell/guard';
import { useFreshSession, useMe } from '@/components/shell/session';
import { Button, ErrorNotice, Field } from '@/components/ui';
import { PageTitle } from '@/components/ui/page-title';
import { describeError, isUnauthorized } from '@/lib/errors';
import {
  ACCEPTED_FILES,
  type Import,
  ImportRefused,
  isUnderWay,
  refusalWords,
  sendImport,
} from '@/lib/imports';
import { browserSessionFetch } from '@/lib/session-refresh';
import { trpc } from '@/lib/trpc';
import '@/app/(console)/songs/_components/imports.css';

/**
 * Songs added or updated from a file (admins, and artist accounts for their own artists' songs):
 * the file is checked first (a dry run: nothing is written, every record's fate is counted and its
 * errors listed by line), then imported, each followed as it goes. Other accounts are told that
 * only admins and artists import; the API refuses them regardless.
 */
export default function ImportSongsPage() {
  const me = useMe();
  return (
    <>
      <PageTitle name="Import songs" />
      <p className="breadcrumbs">
        <Link href="/songs">Songs</Link> / Import
      </p>
      <PageHeader title="Import songs" />
      {me.role === 'admin' || me.role === 'artist' ? (
        <Importer artist={me.role === 'artist'} />
      ) : (
        <div className="notice notice-error" role="alert">
          Only admins and artist accounts import songs. Ask an admin to add the songs you have in a file.
        </div>
      )}
    </>
  );
}

function FileFormat() {
  return (
    <details className="card import-format">
      <summary>What the file holds</summary>
      <ul>
        <li>
          <strong>CSV</strong> (.csv): a header row naming some of the columns{' '}
          <code>title, album, genre, duration, releaseYear, isrc, externalId, artists</code>, then a song a
          line. <code>title</code> and <code>duration</code> (in seconds) are required; an artist cell holds
          the artists’ names separated by <code>;</code>.
        </li>
        <li>
          <strong>NDJSON</strong> (.ndjson, .jsonl): a song a line, as a JSON object with the same fields,{' '}
          <code>artists</code> a list of names.
        </li>
        <li>
          A song with an <code>externalId</code> the catalogue has already is updated; the others are added.
          “Export CSV” on the songs list writes a file in this form.
        </li>
      </ul>
    </details>
  );
}

function Importer({ artist }: { artist: boolean }) {
  const [file, setFile] = useState<File | null>(null);
  const [checkSent, setCheckSent] = useState<Import | null>(null);
  const [importSent, setImportSent] = useState<Import | null>(null);
  const [sending, setSending] = useState<'check' | 'import' | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  // Bumped by each file chosen: an answer about the one before is dropped.
  const choice = useRef(0);
  const fresh = useFreshSession();
  const check = useImportRun(checkSent);
  const run = useImportRun(importSent);
  const hintId = useId();
  const utils = trpc.useUtils();

  const checked = check.data?.status === 'succeeded' ? check.data : undefined;
  const canImport = checked !== undefined && importSent === null;
  const imported = run.data?.status === 'succeeded';
  // The songs (and any artists named for the first time) are new: lists read before are stale.
  useEffect(() => {
    if (imported) void Promise.all([utils.songs.invalidate(), utils.artists.invalidate()]);
  }, [imported, utils]);

  function choose(event: ChangeEvent<HTMLInputElement>) {
    choice.current++;
    setFile(event.target.files?.[0] ?? null);
    setCheckSent(null);
    setImportSent(null);
    setRefusal(null);
  }

  async function send(dryRun: boolean) {
    if (!file) {
      setRefusal('Choose a file to import first.');
      return;
    }
    const chosen = choice.current;
    setRefusal(null);
    if (dryRun) setCheckSent(null);
    setSending(dryRun ? 'check' : 'import');
    try {
      // The upload cannot refresh the session itself without sending the file twice.
      const error = await fresh();
      if (error) {
        if (!isUnauthorized(error) && chosen === choice.current) setRefusal(describeError(error));
        return;
      }
      const made = await sendImport(file, dryRun, browserSessionFetch());
      if (chosen !== choice.current) return;
      if (dryRun) setCheckSent(made);
      else setImportSent(made);
    } catch (error) {
      if (chosen === choice.current) {
        setRefusal(error instanceof ImportRefused ? error.message : refusalWords(0, null));
      }
    } finally {
      setSending(null);
    }
  }

  return (
    <>
      <p className="muted">
        Add or update many songs at once from a CSV or NDJSON file of up to 100 MB. Check the file first:
        nothing is written until you import it.
        {artist && ' An artist account imports songs of its own artists only.'}
      </p>
      <FileFormat />
      <Field label="File" hint="A .csv, .ndjson or .jsonl file">
        {(control) => <input {...control} type="file" accept={ACCEPTED_FILES} onChange={choose} />}
      </Field>
      <div className="import-actions">
        <Button
          variant={checked ? 'secondary' : 'primary'}
          onClick={() => void send(true)}
          busy={sending === 'check'}
          disabled={importSent !== null}
        >
          Check the file
        </Button>
        <Button
          variant={checked ? 'primary' : 'secondary'}
          onClick={() => void send(false)}
          busy={sending === 'import'}
          disabled={!canImport}
          aria-describedby={hintId}
        >
          Import
        </Button>
        <span className="field-hint" id={hintId}>
          {importSent
            ? isUnderWay(run.data)
              ? 'The file is being imported.'
              : 'To import another file, choose it and check it.'
            : checked
              ? 'The check is done: import the file.'
              : check.data?.status === 'failed'
                ? 'This file cannot be imported: it could not be read.'
                : 'Import is possible once the file is checked.'}
        </span>
      </div>
      <ErrorNotice error={refusal} />
      {checkSent && <ImportRun heading="Check" query={check} showErrors={importSent === null} />}
      {importSent && <ImportRun heading="Import" query={run} expected={checked?.counts.read} showErrors />}
      {imported && (
        <p>
          <Link href="/songs?sort=-createdAt">See the songs, newest added first</Link>
        </p>
      )}
    </>
  );
}
