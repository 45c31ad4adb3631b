export default function create(rt) {
  // Section "summarize-tool-results": its Handlebars template compiled to plain JavaScript.
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
  return function render(ctx) {
    try {
      let v;
      return (truthy(fv((ctx == null ? ctx : (v = ctx.keepRecentToolResults) == null ? v : (gp(ctx) === OP && !("keepRecentToolResults" in OP)) || own.call(ctx, "keepRecentToolResults") ? v : undefined), ctx)) ? "# Keeping what you need from tool results\n\nBecause old tool results can disappear from the context, note anything you will need later (a path, a line number, a value, an error message, a conclusion) in your own text when you first see it. Do not rely on being able to scroll back to the original result.\n" : "");
    } catch (error) {
      throw rt.failed("summarize-tool-results", error);
    }
  };
}
