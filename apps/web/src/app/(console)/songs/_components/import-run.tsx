'use client';

import { skipToken } from '@tanstack/react-query';
import { Fragment, useId } from 'react';
import { Button, ErrorNotice } from '@/components/ui';
import {
  countsOf,
  errorReportCsv,
  errorReportName,
  type Import,
  importProgress,
  isUnderWay,
  pollInterval,
  progressWords,
  statusWords,
} from '@/lib/imports';
import { trpc } from '@/lib/trpc';

/**
 * An import as `POST /imports` answered it (`sent`), then read again with `imports.get` every
 * half second while it is queued or running.
 */
export function useImportRun(sent: Import | null) {
  return trpc.imports.get.useQuery(sent ? { importId: sent.id } : skipToken, {
    initialData: sent ?? undefined,
    refetchInterval: (query) => pollInterval(query.state.data),
  });
}

/** Saves the errors as a CSV file of their own (line, field, message), made here in the browser. */
function downloadReport(run: Import) {
  const url = URL.createObjectURL(new Blob([errorReportCsv(run.errors)], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = errorReportName(run);
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked once the browser has surely taken it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The records that failed, by line, and the report of them. */
function ImportErrors({ run }: { run: Import }) {
  const { failed } = run.counts;
  return (
    <>
      <div className="page-header">
        <h3>Errors by line</h3>
        {!isUnderWay(run) && (
          <div className="page-actions">
            <Button onClick={() => downloadReport(run)}>Download the error report</Button>
          </div>
        )}
      </div>
      {failed > run.errors.length && (
        <p className="muted">
          The first {run.errors.length.toLocaleString('en')} of {failed.toLocaleString('en')} errors are
          listed here and in the report.
        </p>
      )}
      <table className="table import-errors">
        <caption className="sr-only">Errors by line of the file</caption>
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Field</th>
            <th scope="col">Message</th>
          </tr>
        </thead>
        <tbody>
          {run.errors.map((error, index) => (
            // A record may fail on several fields, and a field twice: the position tells them apart.
            // biome-ignore lint/suspicious/noArrayIndexKey: the list only grows, in order
            <tr key={index}>
              <td data-label="Line">{error.line}</td>
              <td data-label="Field">
                {error.field ? <code>{error.field}</code> : <span className="muted">the whole record</span>}
              </td>
              <td data-label="Message">{error.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/**
 * One run over the file, a check (dry run) or the import: where it is (announced as it changes),
 * a progress bar while it is under way (determinate once the check has counted the file's
 * records, `expected`), its counts so far, why it stopped if it did, and its errors by line
 * (`showErrors`) with their report.
 */
export function ImportRun({
  heading,
  query,
  expected,
  showErrors,
}: {
  heading: string;
  query: ReturnType<typeof useImportRun>;
  expected?: number | undefined;
  showErrors: boolean;
}) {
  const headingId = useId();
  const barId = useId();
  const run = query.data;
  if (!run) return null;
  const progress = importProgress(run, expected);
  return (
    <section className="card import-run" aria-labelledby={headingId}>
      <h2 id={headingId}>{heading}</h2>
      <p role="status" className={run.status === 'succeeded' ? 'notice notice-success' : undefined}>
        {statusWords(run)}
      </p>
      {/* A failed read of it: the import goes on, and it is read again. */}
      <ErrorNotice error={query.error} title="Its progress could not be read." />
      {isUnderWay(run) && (
        <div className="import-progress">
          <progress
            aria-labelledby={`${headingId} ${barId}`}
            {...(progress ? { value: progress.value, max: progress.max } : {})}
          />
          <span id={barId}>{progressWords(run, expected)}</span>
        </div>
      )}
      {run.status === 'failed' && (
        <ErrorNotice
          error={run.failure ?? 'The file could not be read.'}
          title="The file could not be read:"
        />
      )}
      <dl className="facts">
        {countsOf(run).map(({ label, value }) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>{value.toLocaleString('en')}</dd>
          </Fragment>
        ))}
      </dl>
      {showErrors && run.errors.length > 0 && <ImportErrors run={run} />}
    </section>
  );
}
