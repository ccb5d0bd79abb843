// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
const UNSAFE = /[\u0000-\u001f\\]/;

/**
 * Where to go after signing in: only a path of this console, never another site
 * (`//evil.example`, `/\evil.example` and absolute URLs are open redirects in browsers, and
 * browsers drop tabs and newlines, so "/\t/evil.example" is "//evil.example").
 */
export function safeNext(next: string | null | undefined): string {
  if (!next?.startsWith('/') || next.startsWith('//') || UNSAFE.test(next)) return '/';
  return next;
}
