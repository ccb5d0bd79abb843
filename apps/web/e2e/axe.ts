import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** Serious and critical WCAG 2.2 A/AA violations on the page as it is now, by rule, with where. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  // The run ends in a blank page of its own, opened and closed in this context: the page checked
  // may be left in the background, where Chromium stops its animation frames, and the next click
  // waited a minute for the element to be "stable" (a CI run of 2026-11-27).
  await page.bringToFront();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
