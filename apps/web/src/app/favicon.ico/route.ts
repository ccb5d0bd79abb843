/**
 * `/favicon.ico`, for browsers and tools that ask for it whatever the page's `<link rel="icon">`
 * says (the page points at `src/app/icon.svg`, which Next serves with a content hash). Answers
 * that same drawing as SVG. A folder, not a `favicon.ico` file: Next's favicon convention takes
 * only a real .ico, and a custom `/favicon.ico/route.ts` is the form its metadata routes allow.
 */

// A copy of src/app/icon.svg (a route handler cannot import an .svg as text without a loader);
// the browser test checks the two answers are the same bytes.
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#4b3fd1"/><path d="M12.5 22.5V9.8L24 7.2v12.8" fill="none" stroke="#fff" stroke-width="2.2" stroke-linejoin="round"/><ellipse cx="9.6" cy="22.6" rx="3.6" ry="2.9" fill="#fff"/><ellipse cx="21.1" cy="20.1" rx="3.6" ry="2.9" fill="#fff"/></svg>
`;

// Rendered once at build time; the answer never depends on the request.
export const dynamic = 'force-static';

export function GET(): Response {
  return new Response(ICON, {
    headers: {
      'Content-Type': 'image/svg+xml',
      // Not content-hashed, but it changes about never, and a stale icon harms no one.
      'Cache-Control': 'public, max-age=31536000',
      // Opened on its own, an SVG is a document: it may not run or load anything.
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
    },
  });
}
