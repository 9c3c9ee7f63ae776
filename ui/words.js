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

// An error the gateway answered, in the reader's words (`words`: the panel's phrasebook, which holds them for
// the board too): by its field (`admin-invalid-<field>`), else its code (`admin-error-<code>`, the field named),
// else the gateway's own message, which stays English for operators.
window.errorText = (words, e) => {
  const args = { field: e.field || 'none' };
  for (const id of [e.field && `admin-invalid-${e.field}`, e.code && `admin-error-${e.code}`].filter(Boolean)) {
    const said = words.t(id, args);
    if (said !== id) return said;
  }
  return e.message;
};

// The error of a failed answer (`body`: its JSON, if any), with the code and field the pages translate by.
window.apiError = (response, body) => Object.assign(new Error(body?.error?.message || response.statusText),
  { status: response.status, code: body?.error?.code, field: body?.error?.field });
