/** An error and its causes as one line: what failed, then why, down to the driver's own words. */
export function oneLine(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    if (current instanceof AggregateError && current.errors.length > 0 && !current.message) {
      current = current.errors[0];
      continue;
    }
    const message = current instanceof Error ? current.message : String(current);
    const code = (current as { code?: unknown }).code;
    const text = `${message}${typeof code === 'string' && !message.includes(code) ? ` (${code})` : ''}`;
    if (text && !parts.includes(text)) parts.push(text);
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(': ').replace(/\s*\n\s*/g, ' ');
}
