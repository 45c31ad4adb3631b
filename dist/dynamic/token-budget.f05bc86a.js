export default function create(rt) {
  // Section "token-budget": its Handlebars template compiled to plain JavaScript.
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
      return (truthy(fv((ctx == null ? ctx : (v = ctx.tokenBudget) == null ? v : (gp(ctx) === OP && !("tokenBudget" in OP)) || own.call(ctx, "tokenBudget") ? v : undefined), ctx)) ? ("# Token budget\n\nThe user has set a budget of about " + (typeof (v = (typeof (v = (ctx == null ? ctx : (v = ctx.tokenBudget) == null ? v : (gp(ctx) === OP && !("tokenBudget" in OP)) || own.call(ctx, "tokenBudget") ? v : undefined)) === "function" ? amb(v, ctx, "tokenBudget", { root: ctx }, 4, 35, 4, 50) : v)) === "string" ? v : v == null ? "" : rt.text(v, "token-budget", "tokenBudget")) + " output tokens for this task. Use it: keep working through the task until it is complete or the budget is nearly spent, rather than stopping early to check in. As you approach the budget, finish the step you are on, leave the work in a consistent state, and summarize what is done and what remains.\n") : "");
    } catch (error) {
      throw rt.failed("token-budget", error);
    }
  };
}
