export default function create(rt) {
  // Section "current-date": its Handlebars template compiled to plain JavaScript.
  // Renders exactly what Handlebars.compile(template, { noEscape: true }) renders.
  const own = Object.prototype.hasOwnProperty;
  const OP = Object.prototype;
  const gp = Object.getPrototypeOf;
  function amb(f, self, name, data, line, column, endLine, endColumn) {
    const loc = { start: { line, column }, end: { line: endLine, column: endColumn } };
    return f.call(self, { name, hash: {}, data, loc });
  }
  return function render(ctx) {
    try {
      if (ctx.date === undefined) rt.missing("current-date", "date");
      let v;
      return "Today's date is " + (typeof (v = (typeof (v = (ctx == null ? ctx : (v = ctx.date) == null ? v : (gp(ctx) === OP && !("date" in OP)) || own.call(ctx, "date") ? v : undefined)) === "function" ? amb(v, ctx, "date", { root: ctx }, 1, 16, 1, 24) : v)) === "string" ? v : v == null ? "" : rt.text(v, "current-date", "date")) + ".";
    } catch (error) {
      throw rt.failed("current-date", error);
    }
  };
}
