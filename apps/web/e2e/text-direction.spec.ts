import { expect, test } from '@playwright/test';
import { ADMIN } from '../playwright.config';
import { apiCall, apiLogin, uniqueSuffix } from './api';
import { signIn } from './steps';

/**
 * Names are anyone's text, in any script: where one meets the console's own words, a
 * right-to-left name is isolated, so it cannot draw the words after it inside itself ("Road trip
 * 🚗 رحلة · 3 songs" read "Road trip 🚗 3 · رحلة songs"). Checked where the browser draws them.
 */
const suffix = uniqueSuffix();
const LISTENER = {
  username: `Direction Listener ${suffix}`,
  email: `direction-${suffix}@e2e.test`,
  password: 'direction-password-1',
};

test('a right-to-left playlist name is isolated: the song count after it stays after it', async ({
  page,
}) => {
  const admin = await apiLogin(ADMIN);
  const songs = await Promise.all(
    [1, 2, 3, 4].map((n) =>
      apiCall<{ id: string; title: string }>('POST', '/songs', admin, {
        title: `Direction ${suffix} ${n}`,
        duration: 100,
      }),
    ),
  );
  await apiCall('POST', '/users', null, LISTENER);
  const listener = await apiLogin(LISTENER);
  // Ends in Arabic: without isolation the count after it is drawn inside it.
  const playlist = await apiCall<{ id: string }>('POST', '/playlists', listener, {
    name: `Direction ${suffix} Road trip 🚗 رحلة`,
    songIds: songs.slice(0, 3).map((song) => song.id),
  });

  await signIn(page, LISTENER);
  await page.goto('/songs');
  const song = songs[3]!;
  await page.getByLabel('Search songs by title, album or artist').fill(song.title);
  await page.getByRole('button', { name: `Add to playlist: ${song.title}` }).click();
  const dialog = page.getByRole('dialog', { name: `Add “${song.title}” to a playlist` });
  const row = dialog.getByRole('listitem').filter({ hasText: 'رحلة' });
  await expect(row).toContainText('3 songs');
  // Where the word رحلة and the digit 3 of the count are drawn: the count comes after the name.
  // (Unisolated, the count is drawn inside the name, on its line.)
  const [word, digit] = await row.evaluate((element) => {
    const box = (text: string, within: Element) => {
      const walker = document.createTreeWalker(within, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent!.indexOf(text);
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + text.length);
        const rect = range.getBoundingClientRect();
        return { left: rect.left, right: rect.right, top: rect.top, bottom: rect.bottom };
      }
      throw new Error(`${text} not found`);
    };
    // The count is in the muted text after the name (the name itself may hold a 3).
    return [box('رحلة', element), box('3', element.querySelector('.muted')!)];
  });
  // On a narrow screen the count may wrap to a line of its own: after the name either way.
  const nextLine = digit!.top >= word!.bottom - 1;
  if (!nextLine) expect(digit!.left).toBeGreaterThanOrEqual(word!.right);
  await page.keyboard.press('Escape');
  await apiCall('DELETE', `/playlists/${playlist.id}`, listener);
  await Promise.all(songs.map((made) => apiCall('DELETE', `/songs/${made.id}`, admin)));
});
