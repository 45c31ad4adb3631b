export default function create(rt) {
  // Section "output-style": its Handlebars template compiled to plain JavaScript.
  // Renders exactly what Handlebars.compile(template, { noEscape: true }) renders.
  const own = Object.prototype.hasOwnProperty;
  const OP = Object.prototype;
  const gp = Object.getPrototypeOf;
  const isArray = Array.isArray;
  function fv(v, self) {
    return typeof v === "function" ? v.call(self) : v;
  }
  function present(v) {
    return (!!v || v === 0) && !(isArray(v) && v.length === 0);
  }
  function amb(f, self, name, data, line, column, endLine, endColumn) {
    const loc = { start: { line, column }, end: { line: endLine, column: endColumn } };
    return f.call(self, { name, hash: {}, data, loc });
  }
  return function render(ctx) {
    try {
      let v, w1;
      return (present(w1 = fv((ctx == null ? ctx : (v = ctx.outputStyle) == null ? v : (gp(ctx) === OP && !("outputStyle" in OP)) || own.call(ctx, "outputStyle") ? v : undefined), ctx)) ? ("# Output style: " + (typeof (v = (typeof (v = (w1 == null ? w1 : (v = w1.name) == null ? v : (gp(w1) === OP && !("name" in OP)) || own.call(w1, "name") ? v : undefined)) === "function" ? amb(v, w1, "name", { root: ctx }, 2, 16, 2, 24) : v)) === "string" ? v : v == null ? "" : rt.text(v, "output-style", "name")) + "\n\nThe user has selected an output style. Follow its instructions below; where they conflict with the earlier guidance on tone and length, the output style wins.\n\n" + (typeof (v = (typeof (v = (w1 == null ? w1 : (v = w1.instructions) == null ? v : (gp(w1) === OP && !("instructions" in OP)) || own.call(w1, "instructions") ? v : undefined)) === "function" ? amb(v, w1, "instructions", { root: ctx }, 6, 0, 6, 16) : v)) === "string" ? v : v == null ? "" : rt.text(v, "output-style", "instructions")) + "\n") : "");
    } catch (error) {
      throw rt.failed("output-style", error);
    }
  };
}
