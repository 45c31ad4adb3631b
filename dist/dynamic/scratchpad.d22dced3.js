export default function create(rt) {
  // Section "scratchpad": its Handlebars template compiled to plain JavaScript.
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
      return (truthy(fv((ctx == null ? ctx : (v = ctx.scratchpadDir) == null ? v : (gp(ctx) === OP && !("scratchpadDir" in OP)) || own.call(ctx, "scratchpadDir") ? v : undefined), ctx)) ? ("# Scratchpad directory\n\nYour scratchpad directory for this session is:\n\n" + (typeof (v = (typeof (v = (ctx == null ? ctx : (v = ctx.scratchpadDir) == null ? v : (gp(ctx) === OP && !("scratchpadDir" in OP)) || own.call(ctx, "scratchpadDir") ? v : undefined)) === "function" ? amb(v, ctx, "scratchpadDir", { root: ctx }, 6, 0, 6, 17) : v)) === "string" ? v : v == null ? "" : rt.text(v, "scratchpad", "scratchpadDir")) + "\n\nUse it for temporary files instead of `/tmp` or the project tree. It is private to this session and can be written without asking for permission. Put intermediate output, one-off scripts, downloaded material and working notes for long tasks there. Anything the user should keep belongs in the project, not in the scratchpad.\n") : "");
    } catch (error) {
      throw rt.failed("scratchpad", error);
    }
  };
}
