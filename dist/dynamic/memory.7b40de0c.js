export default function create(rt) {
  // Section "memory": its Handlebars template compiled to plain JavaScript.
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
      return (truthy(fv((ctx == null ? ctx : (v = ctx.memory) == null ? v : (gp(ctx) === OP && !("memory" in OP)) || own.call(ctx, "memory") ? v : undefined), ctx)) ? ((typeof (v = (typeof (v = (ctx == null ? ctx : (v = ctx.memory) == null ? v : (gp(ctx) === OP && !("memory" in OP)) || own.call(ctx, "memory") ? v : undefined)) === "function" ? amb(v, ctx, "memory", { root: ctx }, 2, 0, 2, 10) : v)) === "string" ? v : v == null ? "" : rt.text(v, "memory", "memory")) + "\n") : "");
    } catch (error) {
      throw rt.failed("memory", error);
    }
  };
}
