export default function create(rt) {
  // Section "git-status": its Handlebars template compiled to plain JavaScript.
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
      return (truthy(fv((ctx == null ? ctx : (v = ctx.gitStatus) == null ? v : (gp(ctx) === OP && !("gitStatus" in OP)) || own.call(ctx, "gitStatus") ? v : undefined), ctx)) ? "# Git snapshot\n\nA snapshot of the repository's git state (branch, main branch, changed files, recent commits) was taken when this session started and is attached at the end of the system prompt. It does not update while you work. Use it to get your bearings, but run `git status`, `git diff` or `git log` before you rely on it for a commit, a branch decision or a summary of what changed. Files listed as modified there were changed before you started; they may be the user's work in progress, so leave them alone unless the task involves them.\n" : "");
    } catch (error) {
      throw rt.failed("git-status", error);
    }
  };
}
