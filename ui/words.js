// The pages' words: the phrasebook's files (locales/<lang>/<area>.ftl), read by Project Fluent's own library as
// the gateway reads them. A message the language lacks is said in English; an id nobody wrote shows as itself.
'use strict';

window.Words = (area) => {
  const bundles = {};
  let lang = 'en';
  const load = async (code) => {
    if (!bundles[code]) {
      const response = await fetch(`/ui/locales/${encodeURIComponent(code)}/${area}.ftl`);
      const bundle = new FluentBundle.FluentBundle(code, { useIsolating: false });
      if (response.ok) bundle.addResource(new FluentBundle.FluentResource(await response.text()), { allowOverrides: true });
      bundles[code] = bundle;
    }
  };
  const t = (id, args) => {
    for (const bundle of [bundles[lang], bundles.en]) {
      const message = bundle?.getMessage(id);
      if (message?.value) return bundle.formatPattern(message.value, args);
    }
    return id;
  };
  return {
    t,
    get lang() { return lang; },
    /// Loads `code` (and English beside it) and makes it the language of `t`.
    async use(code) {
      await Promise.all([load('en'), load(code)]);
      lang = code;
    },
    /// Puts the words on the marked elements: `data-t` (text), `data-tp` (placeholder), `data-ta` (accessible name).
    apply() {
      document.documentElement.lang = lang;
      document.querySelectorAll('[data-t]').forEach((el) => { el.textContent = t(el.dataset.t); });
      document.querySelectorAll('[data-tp]').forEach((el) => { el.placeholder = t(el.dataset.tp); });
      document.querySelectorAll('[data-ta]').forEach((el) => { el.setAttribute('aria-label', t(el.dataset.ta)); });
    },
  };
};
