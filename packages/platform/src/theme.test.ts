import { readFileSync } from 'node:fs';
import path from 'node:path';
import { colors } from './theme.ts';

const tokensCss = readFileSync(path.join(import.meta.dirname, 'styles/tokens.css'), 'utf8');

/** Every `--color-*: value;` declaration of tokens.css, keyed by its camel-cased name. */
function cssColors(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [, name, value] of tokensCss.matchAll(/--color-([a-z-]+):\s*([^;]+);/g)) {
    out[name!.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())] = value!.trim();
  }
  return out;
}

describe('theme colours', () => {
  it('are the colours tokens.css declares, one for one', () => {
    expect(colors).toEqual(cssColors());
  });

  it('are hex values Highcharts can compute shades from', () => {
    for (const value of Object.values(colors)) expect(value).toMatch(/^#[0-9a-f]{6}$/);
  });
});
