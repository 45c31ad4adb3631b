export default function create(rt) {
  // Section "language": its Handlebars template compiled to plain JavaScript.
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
    return (truthy(fv(lp(ctx, "language"), ctx)) ? ("# Language\n\nWrite all your replies and explanations to the user in " + ((typeof (v = lp(ctx, "language")) === "function" ? amb(v, ctx, "language", { root: ctx }, 4, 55, 4, 67) : v) ?? "") + ". Keep code, identifiers, commands, file paths and quoted output exactly as they are; write code comments and commit messages in the language the project already uses.\n") : "");
  };
}
