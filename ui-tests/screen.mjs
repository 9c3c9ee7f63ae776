// What a person on a phone notices first: a page wider than the screen, a button beyond its edge, the help
// button over the conversation, the end of the page stuck under the question bar.

// Throws with every problem of the page as it is now shown in `page`; returns the sizes it checked.
export async function fitsTheScreen(page, what) {
  const found = await page.evaluate(() => {
    const problems = [];
    // A phone's browser widens its layout to a page that does not fit: the screen is the measure.
    const width = Math.min(window.innerWidth, window.screen.width);
    const height = window.innerHeight;
    const box = (sel) => document.querySelector(sel).getBoundingClientRect();
    const wide = document.documentElement.scrollWidth;
    if (wide > width) problems.push(`the page is ${wide} px wide on a ${width} px screen`);
    window.scrollTo(0, 0);
    for (const sel of ['#mic', '#send', '#help', '#question']) {
      const r = box(sel);
      if (!r.width || r.left < 0 || r.top < 0 || r.right > width || r.bottom > height) {
        problems.push(`${sel} is not on the screen (${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)})`);
      }
    }
    // The help button lies in the question bar's free corner, so it covers nothing that bar does not.
    const help = box('#help');
    const bar = box('#ask');
    const mic = box('#mic');
    if (help.top < bar.top || help.bottom > bar.bottom || help.left < bar.left || help.right > bar.right) {
      problems.push('the help button is outside the question bar, over the page');
    }
    if (help.left < mic.right && mic.left < help.right && help.top < mic.bottom && mic.top < help.bottom) {
      problems.push('the help button covers Speak');
    }
    // Nothing of the header or the page reaches beyond the screen's edges, the folded parts unfolded.
    const folded = [...document.querySelectorAll('details:not([open])')];
    folded.forEach((d) => { d.open = true; });
    for (const el of document.querySelectorAll('header *, main *')) {
      if (!el.checkVisibility()) continue;
      const r = el.getBoundingClientRect();
      if (r.width && (r.left < -1 || r.right > width + 1)) problems.push(`${el.tagName.toLowerCase()}#${el.id || el.className} is cut off (${Math.round(r.left)} to ${Math.round(r.right)})`);
    }
    // Scrolled to the end, the last of the page is above the question bar.
    window.scrollTo(0, document.documentElement.scrollHeight);
    const last = [...document.querySelectorAll('main > *')].filter((el) => el.offsetParent && el.id !== 'ask').pop();
    if (last && last.getBoundingClientRect().bottom > box('#ask').top + 1) problems.push(`#${last.id} stays under the question bar`);
    window.scrollTo(0, 0);
    folded.forEach((d) => { d.open = false; });
    return { problems, width, height, speak: `${Math.round(mic.width)}x${Math.round(mic.height)}` };
  });
  if (found.problems.length) throw new Error(`${what}: ${found.problems.join('; ')}`);
  return found;
}
