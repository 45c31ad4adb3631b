export default function create(rt) {
  // Section "model-override": its Handlebars template compiled to plain JavaScript.
  // Renders exactly what Handlebars.compile(template, { noEscape: true }) renders.
  const own = Object.prototype.hasOwnProperty;
  const OP = Object.prototype;
  const gp = Object.getPrototypeOf;
  const isArray = Array.isArray;
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
    try {
      let v;
      return (truthy(fv((ctx == null ? ctx : (v = ctx.modelOverride) == null ? v : (gp(ctx) === OP && !("modelOverride" in OP)) || own.call(ctx, "modelOverride") ? v : undefined), ctx)) ? ("# Model-specific instructions\n\n" + (typeof (v = (typeof (v = (ctx == null ? ctx : (v = ctx.modelOverride) == null ? v : (gp(ctx) === OP && !("modelOverride" in OP)) || own.call(ctx, "modelOverride") ? v : undefined)) === "function" ? amb(v, ctx, "modelOverride", { root: ctx }, 4, 0, 4, 17) : v)) === "string" ? v : v == null ? "" : rt.text(v, "model-override", "modelOverride")) + "\n") : "");
    } catch (error) {
      throw rt.failed("model-override", error);
    }
  };
}
