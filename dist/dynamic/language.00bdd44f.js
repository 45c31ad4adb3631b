export default function create(rt) {
  // Section "language": its Handlebars template compiled to plain JavaScript.
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
      return (truthy(fv((ctx == null ? ctx : (v = ctx.language) == null ? v : (gp(ctx) === OP && !("language" in OP)) || own.call(ctx, "language") ? v : undefined), ctx)) ? ("# Language\n\nWrite all your replies and explanations to the user in " + (typeof (v = (typeof (v = (ctx == null ? ctx : (v = ctx.language) == null ? v : (gp(ctx) === OP && !("language" in OP)) || own.call(ctx, "language") ? v : undefined)) === "function" ? amb(v, ctx, "language", { root: ctx }, 4, 55, 4, 67) : v)) === "string" ? v : v == null ? "" : rt.text(v, "language", "language")) + ". Keep code, identifiers, commands, file paths and quoted output exactly as they are; write code comments and commit messages in the language the project already uses.\n") : "");
    } catch (error) {
      throw rt.failed("language", error);
    }
  };
}
