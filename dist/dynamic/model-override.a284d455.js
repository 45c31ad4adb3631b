export default function create(rt) {
  // Section "model-override": its Handlebars template compiled to plain JavaScript.
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
    return (truthy(fv(lp(ctx, "modelOverride"), ctx)) ? ("# Model-specific instructions\n\n" + ((typeof (v = lp(ctx, "modelOverride")) === "function" ? amb(v, ctx, "modelOverride", { root: ctx }, 4, 0, 4, 17) : v) ?? "") + "\n") : "");
  };
}
