export default function create(rt) {
  // Section "git-snapshot": its Handlebars template compiled to plain JavaScript.
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
      if (ctx.commits === undefined) rt.missing("git-snapshot", "commits");
      if (ctx.mainBranch === undefined) rt.missing("git-snapshot", "mainBranch");
      if (ctx.status === undefined) rt.missing("git-snapshot", "status");
      let t, v;
      return "This is the git status at the start of the conversation. It is a snapshot: it will not update during the conversation.\nCurrent branch: " + (truthy(fv((ctx == null ? ctx : (v = ctx.branch) == null ? v : (gp(ctx) === OP && !("branch" in OP)) || own.call(ctx, "branch") ? v : undefined), ctx)) ? (typeof (v = (typeof (v = (ctx == null ? ctx : (v = ctx.branch) == null ? v : (gp(ctx) === OP && !("branch" in OP)) || own.call(ctx, "branch") ? v : undefined)) === "function" ? amb(v, ctx, "branch", { root: ctx }, 2, 30, 2, 40) : v)) === "string" ? v : v == null ? "" : rt.text(v, "git-snapshot", "branch")) : ("(detached HEAD" + (truthy(fv((ctx == null ? ctx : (v = ctx.detachedAt) == null ? v : (gp(ctx) === OP && !("detachedAt" in OP)) || own.call(ctx, "detachedAt") ? v : undefined), ctx)) ? (" at " + (typeof (v = (typeof (v = (ctx == null ? ctx : (v = ctx.detachedAt) == null ? v : (gp(ctx) === OP && !("detachedAt" in OP)) || own.call(ctx, "detachedAt") ? v : undefined)) === "function" ? amb(v, ctx, "detachedAt", { root: ctx }, 2, 84, 2, 98) : v)) === "string" ? v : v == null ? "" : rt.text(v, "git-snapshot", "detachedAt"))) : "") + ")")) + "\nMain branch (you will usually use this for pull requests): " + (typeof (v = (typeof (v = (ctx == null ? ctx : (v = ctx.mainBranch) == null ? v : (gp(ctx) === OP && !("mainBranch" in OP)) || own.call(ctx, "mainBranch") ? v : undefined)) === "function" ? amb(v, ctx, "mainBranch", { root: ctx }, 3, 59, 3, 73) : v)) === "string" ? v : v == null ? "" : rt.text(v, "git-snapshot", "mainBranch")) + "\n" + (truthy(fv((ctx == null ? ctx : (v = ctx.userName) == null ? v : (gp(ctx) === OP && !("userName" in OP)) || own.call(ctx, "userName") ? v : undefined), ctx)) ? ("Git user: " + (typeof (v = (typeof (v = (ctx == null ? ctx : (v = ctx.userName) == null ? v : (gp(ctx) === OP && !("userName" in OP)) || own.call(ctx, "userName") ? v : undefined)) === "function" ? amb(v, ctx, "userName", { root: ctx }, 5, 10, 5, 22) : v)) === "string" ? v : v == null ? "" : rt.text(v, "git-snapshot", "userName")) + "\n") : "") + "\nStatus:\n" + (truthy(fv((ctx == null ? ctx : (v = ctx.status) == null ? v : (gp(ctx) === OP && !("status" in OP)) || own.call(ctx, "status") ? v : undefined), ctx)) ? ((typeof (v = (typeof (v = (ctx == null ? ctx : (v = ctx.status) == null ? v : (gp(ctx) === OP && !("status" in OP)) || own.call(ctx, "status") ? v : undefined)) === "function" ? amb(v, ctx, "status", { root: ctx }, 10, 0, 10, 10) : v)) === "string" ? v : v == null ? "" : rt.text(v, "git-snapshot", "status")) + "\n") : "(clean)\n") + (truthy(fv((ctx == null ? ctx : (v = ctx.truncated) == null ? v : (gp(ctx) === OP && !("truncated" in OP)) || own.call(ctx, "truncated") ? v : undefined), ctx)) ? ("... (truncated: the status is over " + (typeof (v = (typeof (v = ((t = (ctx == null ? ctx : (v = ctx.truncated) == null ? v : (gp(ctx) === OP && !("truncated" in OP)) || own.call(ctx, "truncated") ? v : undefined)) == null ? t : (v = t.limit) == null ? v : (gp(t) === OP && !("limit" in OP)) || own.call(t, "limit") ? v : undefined)) === "function" ? v.call(ctx) : v)) === "string" ? v : v == null ? "" : rt.text(v, "git-snapshot", "truncated.limit")) + " characters; " + (typeof (v = (typeof (v = ((t = (ctx == null ? ctx : (v = ctx.truncated) == null ? v : (gp(ctx) === OP && !("truncated" in OP)) || own.call(ctx, "truncated") ? v : undefined)) == null ? t : (v = t.omittedLines) == null ? v : (gp(t) === OP && !("omittedLines" in OP)) || own.call(t, "omittedLines") ? v : undefined)) === "function" ? v.call(ctx) : v)) === "string" ? v : v == null ? "" : rt.text(v, "git-snapshot", "truncated.omittedLines")) + " more lines not shown. Run \"git status\" for the full list.)\n") : "") + "\nRecent commits:\n" + (truthy(fv((ctx == null ? ctx : (v = ctx.commits) == null ? v : (gp(ctx) === OP && !("commits" in OP)) || own.call(ctx, "commits") ? v : undefined), ctx)) ? (typeof (v = (typeof (v = (ctx == null ? ctx : (v = ctx.commits) == null ? v : (gp(ctx) === OP && !("commits" in OP)) || own.call(ctx, "commits") ? v : undefined)) === "function" ? amb(v, ctx, "commits", { root: ctx }, 19, 15, 19, 26) : v)) === "string" ? v : v == null ? "" : rt.text(v, "git-snapshot", "commits")) : "(no commits yet)");
    } catch (error) {
      throw rt.failed("git-snapshot", error);
    }
  };
}
