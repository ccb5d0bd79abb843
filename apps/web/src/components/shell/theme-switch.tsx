'use client';

import { useId, useSyncExternalStore } from 'react';
import { chooseTheme, currentTheme, onThemeChange, type Theme } from '@/lib/theme';

const NAMES: Record<Theme, string> = { system: 'As the system', light: 'Light', dark: 'Dark' };

/**
 * The console's theme, on the account page: the system's (the default), light or dark, kept in
 * this browser for next time. Applies at once.
 */
export function ThemeSwitch() {
  const id = useId();
  // Read from the page (the server rendered it in the cookie's theme); 'system' while hydrating.
  const theme = useSyncExternalStore(onThemeChange, currentTheme, () => 'system' as const);
  return (
    <div className="field theme-switch">
      <label htmlFor={id}>Theme</label>
      <select
        id={id}
        aria-describedby={`${id}-hint`}
        value={theme}
        onChange={(event) => {
          chooseTheme(event.target.value as Theme);
        }}
      >
        {(Object.keys(NAMES) as Theme[]).map((value) => (
          <option key={value} value={value}>
            {NAMES[value]}
          </option>
        ))}
      </select>
      <p className="field-hint" id={`${id}-hint`}>
        “As the system” follows this device’s light or dark setting. Kept in this browser.
      </p>
    </div>
  );
}
