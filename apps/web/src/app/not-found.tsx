import Link from 'next/link';
import { PageTitle, RequestedPath } from '@/components/ui/page-title';

/**
 * Any address the console has no page for (Next answers it with a 404): which one, and the way
 * back. Outside the console's frame, which needs the session, so it takes the sign-in card's look.
 */
export default function NotFound() {
  return (
    <main className="sign-in">
      <PageTitle name="Page not found" />
      <div className="sign-in-card">
        <p>
          <Link href="/" className="brand">
            ♪ Music Catalogue
          </Link>
        </p>
        <h1>Page not found</h1>
        <p className="muted">
          There is no page at <RequestedPath />. It may have moved, or the link that led here may be wrong.
        </p>
        <ul className="link-list">
          <li>
            <Link href="/">Go to the home page</Link>
          </li>
          <li>
            <Link href="/songs">Browse the songs</Link>
          </li>
        </ul>
      </div>
    </main>
  );
}
