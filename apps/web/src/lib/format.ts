/** Durations and dates as the console shows and reads them. */

import { createSongInput } from '@music/api-router/schemas';

// A song's length bounds in seconds (1 to 86400), as the procedure's own schema declares them.
const durationSchema = createSongInput.shape.duration;
export const MIN_DURATION = durationSchema.minValue ?? 1;
export const MAX_DURATION = durationSchema.maxValue ?? Number.POSITIVE_INFINITY;

export function formatDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

export function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

/** A moment in the reader's own time zone, to the minute, as their browser words dates. */
export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}

/** A length as typed: its seconds, or what is wrong with it in words. */
export type DurationReading = { ok: true; seconds: number } | { ok: false; error: string };

const FORMAT = 'Use minutes:seconds (3:25), hours:minutes:seconds (1:02:03) or seconds (205)';

/**
 * Reads "m:ss", "h:mm:ss" or plain seconds. Minutes and seconds after a colon must be 0-59 and
 * written with two digits: "3:75" is a typo, not 4:15, so it is refused rather than carried over.
 * The length must be within the API's bounds, 0:01 to 24:00:00.
 */
export function readDuration(text: string): DurationReading {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, error: 'Enter the length, such as 3:25' };
  const parts = trimmed.split(':');
  if (parts.length > 3 || parts.some((part) => !/^\d+$/.test(part))) return { ok: false, error: FORMAT };
  const [seconds = '', minutes, hours] = [...parts].reverse();
  if (minutes !== undefined && Number(minutes) > 59) {
    return {
      ok: false,
      error:
        hours === undefined
          ? 'Minutes must be 0-59 (write an hour or more as 1:15:00)'
          : 'Minutes must be 0-59',
    };
  }
  if (minutes !== undefined && Number(seconds) > 59) return { ok: false, error: 'Seconds must be 0-59' };
  if (hours !== undefined && minutes?.length !== 2) {
    return { ok: false, error: 'Write minutes with two digits, as in 1:02:03' };
  }
  if (minutes !== undefined && seconds.length !== 2) {
    return { ok: false, error: 'Write seconds with two digits, as in 3:05' };
  }
  const total = parts.reduce((sum, part) => sum * 60 + Number(part), 0);
  if (total < MIN_DURATION) {
    return { ok: false, error: `The length must be at least ${formatDuration(MIN_DURATION)}` };
  }
  if (total > MAX_DURATION) {
    return { ok: false, error: `The length must be at most ${formatDuration(MAX_DURATION)}` };
  }
  return { ok: true, seconds: total };
}
