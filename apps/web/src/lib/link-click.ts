/**
 * The address a click follows in this tab: the URL of the link clicked, or null for a click that
 * is no plain one (another button, a modifier key that opens a new tab or window) or that opens
 * elsewhere (`target`, `download`). The console's link listeners (unsaved edits, a pending
 * search) ask this, so they agree on which clicks leave the page.
 */
export function followedLink(event: MouseEvent): URL | null {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!(link instanceof HTMLAnchorElement) || link.hasAttribute('download')) return null;
  if (link.target !== '' && link.target !== '_self') return null;
  return new URL(link.href, window.location.href);
}

/** Whether `to` is another page of this site than the one shown (not just another #fragment). */
export function isOtherPage(to: URL): boolean {
  const here = window.location;
  return to.origin === here.origin && (to.pathname !== here.pathname || to.search !== here.search);
}
