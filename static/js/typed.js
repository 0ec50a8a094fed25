// A language chosen in the middle of typing: the page comes back in the other language with everything typed
// in it put back (kept in this tab for that one page, and only until it is put back). app.js loads this file
// on a page with a form, before the forms' own helpers (forms.js), which then see what was put back.
(function () {
  "use strict";
  var TYPED = "courtier-typed", KEPT_MS = 60000;
  function changed(field) {
    if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
    if (field.tagName === "SELECT") {
      return Array.prototype.some.call(field.options, function (o) { return o.selected !== o.defaultSelected; });
    }
    return "defaultValue" in field && field.value !== field.defaultValue;
  }
  function typedIn(form) {
    var fields = Array.prototype.filter.call(form.elements, function (field) {
      return field.name && field.name !== "csrf_token" && !/^(submit|button|file)$/.test(field.type);
    });
    if (!fields.some(changed)) return null;
    return fields.map(function (field) {
      var box = field.type === "checkbox" || field.type === "radio";
      return [field.name, box ? field.value : null, box ? field.checked : field.value];
    });
  }
  document.addEventListener("submit", function (event) {
    if (!event.target.matches("[data-language-form]")) return;
    var forms = Array.prototype.filter.call(document.forms, function (f) { return f !== event.target; });
    var kept = forms.map(typedIn);
    if (!kept.some(Boolean)) return;
    try {
      sessionStorage.setItem(TYPED, JSON.stringify({ page: location.pathname + location.search, at: Date.now(),
                                                     forms: kept }));
    } catch (e) { /* private mode: the language changes, the typing is not kept */ }
  });
  function putBack(form, fields) {
    var asked = [];
    fields.forEach(function (kept) {
      var matching = form.querySelectorAll("[name='" + CSS.escape(kept[0]) + "']");
      Array.prototype.forEach.call(matching, function (field) {
        if (kept[1] !== null) { if (field.value === kept[1]) field.checked = kept[2]; return; }
        if (field.value === kept[2]) return;
        field.value = kept[2];
        if (field.hasAttribute("hx-trigger")) asked.push(field);  // its live check asks again
      });
    });
    asked.forEach(function (field) { field.dispatchEvent(new Event("input", { bubbles: true })); });
  }
  function putBackTyped() {
    var kept;
    try { kept = JSON.parse(sessionStorage.getItem(TYPED)); sessionStorage.removeItem(TYPED); } catch (e) { kept = null; }
    // Only just now, on its own page: a change of language that never arrived (no signal) leaves nothing to
    // fill a later form at the same address (a hand form's kept version would be refused as out of date anyway).
    if (!kept || kept.page !== location.pathname + location.search || !(Date.now() - kept.at < KEPT_MS)) return;
    var forms = Array.prototype.filter.call(document.forms, function (f) { return !f.matches("[data-language-form]"); });
    kept.forms.forEach(function (fields, i) { if (fields && forms[i]) putBack(forms[i], fields); });
  }

  putBackTyped();
})();
