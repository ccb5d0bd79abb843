import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * Response compression (version 1.1): bodies over 1 KiB, gzip or brotli as the client's
 * `Accept-Encoding` allows. Brotli runs at quality 4: at that level it still beats gzip on JSON
 * and costs about what gzip does (the default, 11, costs ~50x more and would be felt per request).
 */
export const COMPRESS_OVER_BYTES = 1024;

export type Encoding = 'br' | 'gzip';

/**
 * The coding to answer with, from an `Accept-Encoding` value: brotli or gzip when acceptable
 * (q > 0, named or through `*`), brotli preferred at equal weight; none otherwise. Codings the
 * service does not know, and malformed entries, are ignored (identity is always acceptable).
 */
export function negotiateEncoding(header: string | undefined): Encoding | undefined {
  if (!header) return undefined;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    let q = 1;
    for (const param of params) {
      const [key, value] = param.trim().split('=');
      if (key === 'q')
        q = value !== undefined && /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value) ? Number(value) : 0;
    }
    if (name !== '') weights.set(name === 'x-gzip' ? 'gzip' : name, q);
  }
  const any = weights.get('*');
  const weight = (coding: Encoding) => weights.get(coding) ?? any ?? 0;
  const br = weight('br');
  const gzip = weight('gzip');
  if (br > 0 && br >= gzip) return 'br';
  if (gzip > 0) return 'gzip';
  return undefined;
}

export function compress(payload: Buffer, encoding: Encoding): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(payload, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 4,
          [constants.BROTLI_PARAM_SIZE_HINT]: payload.length,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      })
    : gzipSync(payload, { level: 6 });
}

/** `Vary` with `value` added (headers are merged case-sensitively as this service writes them). */
export function addVary(headers: Record<string, string>, value: string): void {
  const current = headers.Vary;
  if (!current) headers.Vary = value;
  else if (!current.split(',').some((v) => v.trim().toLowerCase() === value.toLowerCase())) {
    headers.Vary = `${current}, ${value}`;
  }
}
