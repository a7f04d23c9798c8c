import { test } from '../fixtures/index.ts';
for (const [label, viewport] of [
  ['desktop', { width: 1280, height: 900 }],
  ['mobile', { width: 390, height: 844 }],
] as const) {
  test(`calculator ${label}`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto('/options/sky-spark');
    const calc = page.locator('[data-section="earnings"]');
    await calc.getByTestId('earned').waitFor();
    await calc.screenshot({ path: `/tmp/saver-shots/calc-${label}.png` });
    await page.locator('[data-section="exit"]').screenshot({ path: `/tmp/saver-shots/exit-${label}.png` });
  });
}
