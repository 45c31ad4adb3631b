export default function create(rt) {
  // Section "compact-focus": its Handlebars template compiled to plain JavaScript.
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
      return (truthy(fv((ctx == null ? ctx : (v = ctx.customInstructions) == null ? v : (gp(ctx) === OP && !("customInstructions" in OP)) || own.call(ctx, "customInstructions") ? v : undefined), ctx)) ? ("# Additional instructions for this summary\n\nThe user asked for the following when requesting this summary. Follow it where it differs from the guidance above:\n\n" + (typeof (v = (typeof (v = (ctx == null ? ctx : (v = ctx.customInstructions) == null ? v : (gp(ctx) === OP && !("customInstructions" in OP)) || own.call(ctx, "customInstructions") ? v : undefined)) === "function" ? amb(v, ctx, "customInstructions", { root: ctx }, 6, 0, 6, 22) : v)) === "string" ? v : v == null ? "" : rt.text(v, "compact-focus", "customInstructions")) + "\n") : "");
    } catch (error) {
      throw rt.failed("compact-focus", error);
    }
  };
}
