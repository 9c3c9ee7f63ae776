// axe-core's WCAG 2.2 A and AA rules on the page as it is now; throws naming each violation and where.
// The test browser bypasses the page's content security policy so that the checker can be injected.
import { fileURLToPath } from 'node:url';

const AXE = fileURLToPath(new URL('./node_modules/axe-core/axe.min.js', import.meta.url));
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

export async function accessible(page, screen) {
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) await page.addScriptTag({ path: AXE });
  const result = await page.evaluate((tags) => window.axe.run(document, { runOnly: { type: 'tag', values: tags } }), TAGS);
  if (result.violations.length) {
    const found = result.violations.map((v) => `${v.id} at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}: ${v.help}`);
    throw new Error(`${screen}: ${found.join('; ')}`);
  }
  return result.passes.length;
}
