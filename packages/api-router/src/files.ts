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
