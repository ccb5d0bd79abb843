import { type NextRequest, NextResponse } from 'next/server';

/**
 * An optimistic check only: a visitor with no session cookie at all is sent to sign-in before
 * any page renders. Whether the session is still valid is decided by the API on every call; the
 * console sends the visitor back to sign-in when it says no.
 */
export function proxy(req: NextRequest) {
  const signedIn = req.cookies.has('mc_access') || req.cookies.has('mc_refresh');
  if (signedIn) return NextResponse.next();
  const url = req.nextUrl.clone();
  url.pathname = '/sign-in';
  url.search = '';
  const next = `${req.nextUrl.pathname}${req.nextUrl.search}`;
  if (next !== '/') url.searchParams.set('next', next);
  return NextResponse.redirect(url);
}

export const config = {
  // Every page but sign-in and sign-up; not the console's API routes, Next's assets or the icon.
  matcher: ['/((?!api/|_next/|sign-in|sign-up|favicon.ico|icon.svg).*)'],
};
