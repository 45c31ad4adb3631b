export default function create(rt) {
  // Section "function-result-clearing": its Handlebars template compiled to plain JavaScript.
  // Renders exactly what Handlebars.compile(template, { noEscape: true }) renders.
  const own = Object.prototype.hasOwnProperty;
  const isArray = Array.isArray;
  function lp(p, k) {
    if (p == null) return p;
    const v = p[k];
    if (v == null) return v;
    return own.call(p, k) && !(k === "constructor" && typeof v === "function" && v.prototype === p) ? v : undefined;
  }
  function fv(v, self) {
    return typeof v === "function" ? v.call(self) : v;
  }
  function truthy(v) {
    return !!v && !(isArray(v) && v.length === 0);
  }
  function amb(f, self, name, data, line, column, endLine, endColumn) {
    const loc = { start: { line, column }, end: { line: endLine, column: endColumn } };
    return f.call(self, { name, hash: {}, data, loc });
  }
  return function render(ctx) {
    let v;
    return (truthy(fv(lp(ctx, "keepRecentToolResults"), ctx)) ? ("# Clearing of old tool results\n\nTo free up context, older tool results are removed from the conversation automatically. The " + ((typeof (v = lp(ctx, "keepRecentToolResults")) === "function" ? amb(v, ctx, "keepRecentToolResults", { root: ctx }, 4, 92, 4, 117) : v) ?? "") + " most recent results are always kept; earlier ones may be replaced by a short placeholder.\n") : "");
  };
}
