import { execFileSync } from 'node:child_process';
import path from 'node:path';

export interface PromSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface PromFamily {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'unknown';
  help: string;
  samples: PromSample[];
}

/** Debian's Python, where python3-prometheus-client is installed (not a pyenv one on PATH). */
const PYTHON = '/usr/bin/python3';

/**
 * The exposition as the Prometheus project's own parser reads it (prometheus_client.parser,
 * scripts/test-all.sh installs it): a text it refuses fails the test. Families by name; a
 * counter's family is named without `_total`, its sample with it, as Prometheus has them.
 */
export function parseExposition(text: string): Map<string, PromFamily> {
  const out = execFileSync(PYTHON, [path.join(import.meta.dirname, 'prometheus-parse.py')], {
    input: text,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const families = JSON.parse(out) as PromFamily[];
  // NaN and the infinities come as text (JSON has no such numbers).
  for (const family of families) for (const sample of family.samples) sample.value = Number(sample.value);
  return new Map(families.map((family) => [family.name, family]));
}

/** The sum of the samples named `name` (in whichever family) whose labels include `labels`. */
export function sampleSum(
  families: Map<string, PromFamily>,
  name: string,
  labels: Record<string, string> = {},
): number {
  let sum = 0;
  let found = false;
  for (const family of families.values()) {
    for (const sample of family.samples) {
      if (sample.name !== name) continue;
      found = true;
      if (Object.entries(labels).every(([key, value]) => sample.labels[key] === value)) sum += sample.value;
    }
  }
  if (!found) throw new Error(`no sample ${name} in the exposition`);
  return sum;
}
