import { z } from 'zod';

/**
 * An answer that is a file, written as it is read (an export): its media type, the name to save
 * it as, and its text in pieces. `/v1` streams it (the `download` trait); nothing else serves it.
 * The pieces are produced lazily: a HEAD, or a client gone, reads none of them.
 */
export interface FileAnswer {
  type: string;
  filename: string;
  chunks: AsyncIterable<string>;
}

/**
 * A request body that is a file (an import), read as it arrives: its media type as sent, and its
 * bytes. `/v1` hands it over unread (the `upload` trait); nothing else takes it.
 */
export interface FileUpload {
  type: string;
  /** Its `Content-Length`, when the client said it. */
  length: number | undefined;
  stream: AsyncIterable<Buffer>;
}

/** The input field of an operation taking a file (checked only for its shape). */
export const fileUploadSchema = z
  .custom<FileUpload>(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      typeof (value as FileUpload).type === 'string' &&
      Symbol.asyncIterator in ((value as FileUpload).stream ?? {}),
    'A file is sent as the request body',
  )
  .meta({ override: { type: 'string' } });

/** The output schema of an operation answering a file (checked only for its shape). */
export const fileAnswerSchema = z
  .custom<FileAnswer>(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      typeof (value as FileAnswer).type === 'string' &&
      Symbol.asyncIterator in ((value as FileAnswer).chunks ?? {}),
  )
  .meta({ override: { type: 'string' } });
