/**
 * The console's theme: the system's (light or dark, as the device says, the default), or one
 * chosen with the switch and kept in a cookie for a year, so the server renders the page in it.
 */
export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

export const THEME_COOKIE = 'theme';

/** A cookie's value as a theme: anything else is the system's. */
export function themeOf(value: string | undefined): Theme {
  return (THEMES as readonly string[]).includes(value ?? '') ? (value as Theme) : 'system';
}

const listeners = new Set<() => void>();

/** Calls `changed` whenever a theme is chosen; returns the way to stop. */
export function onThemeChange(changed: () => void): () => void {
  listeners.add(changed);
  return () => listeners.delete(changed);
}

/** Applies `theme` to the page at once and keeps it for the next ones. */
export function chooseTheme(theme: Theme) {
  const root = document.documentElement;
  if (theme === 'system') {
    delete root.dataset.theme;
    // biome-ignore lint/suspicious/noDocumentCookie: one fixed name and value; the Cookie Store API is not in every browser the console serves
    document.cookie = `${THEME_COOKIE}=; path=/; max-age=0; samesite=lax`;
  } else {
    root.dataset.theme = theme;
    // biome-ignore lint/suspicious/noDocumentCookie: as above
    document.cookie = `${THEME_COOKIE}=${theme}; path=/; max-age=31536000; samesite=lax`;
  }
  for (const changed of listeners) changed();
}

/** The theme the page is in now. */
export function currentTheme(): Theme {
  return themeOf(document.documentElement.dataset.theme);
}
