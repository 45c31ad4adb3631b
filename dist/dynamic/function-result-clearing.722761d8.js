export default function create(rt) {
  // Section "function-result-clearing": its Handlebars template compiled to plain JavaScript.
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
      return (truthy(fv((ctx == null ? ctx : (v = ctx.keepRecentToolResults) == null ? v : (gp(ctx) === OP && !("keepRecentToolResults" in OP)) || own.call(ctx, "keepRecentToolResults") ? v : undefined), ctx)) ? ("# Clearing of old tool results\n\nTo free up context, older tool results are removed from the conversation automatically. The " + (typeof (v = (typeof (v = (ctx == null ? ctx : (v = ctx.keepRecentToolResults) == null ? v : (gp(ctx) === OP && !("keepRecentToolResults" in OP)) || own.call(ctx, "keepRecentToolResults") ? v : undefined)) === "function" ? amb(v, ctx, "keepRecentToolResults", { root: ctx }, 4, 92, 4, 117) : v)) === "string" ? v : v == null ? "" : rt.text(v, "function-result-clearing", "keepRecentToolResults")) + " most recent results are always kept; earlier ones may be replaced by a short placeholder.\n") : "");
    } catch (error) {
      throw rt.failed("function-result-clearing", error);
    }
  };
}
