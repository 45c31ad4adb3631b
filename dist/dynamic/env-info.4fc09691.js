export default function create(rt) {
  // Section "env-info": its Handlebars template compiled to plain JavaScript.
  // Renders exactly what Handlebars.compile(template, { noEscape: true }) renders.
  const NC = Object.seal({});
  const own = Object.prototype.hasOwnProperty;
  const isArray = Array.isArray;
  function lp(p, k) {
    if (p == null) return p;
    const v = p[k];
    if (v == null) return v;
    return own.call(p, k) && !(k === "constructor" && typeof v === "function" && v.prototype === p) ? v : undefined;
  }
  function fv(v, self) {
    return typeof v === "function" ? v.call(self) : v;
  }
  function truthy(v) {
    return !!v && !(isArray(v) && v.length === 0);
  }
  function entries(o) {
    if (o[Symbol.iterator]) return [null, Array.from(o)];
    const keys = Object.keys(o);
    return [keys, keys.map((key) => o[key])];
  }
  function amb(f, self, name, data, line, column, endLine, endColumn) {
    const loc = { start: { line, column }, end: { line: endLine, column: endColumn } };
    return f.call(self, { name, hash: {}, data, loc });
  }
  return function render(ctx) {
    if (ctx.cwd === undefined) rt.missing("env-info", "cwd");
    if (ctx.isGitRepo === undefined) rt.missing("env-info", "isGitRepo");
    if (ctx.platform === undefined) rt.missing("env-info", "platform");
    let v, o1, x2, k3, n4, i5, c6;
    o1 = "# Environment\n\nFacts about the environment you are running in:\n\n- Working directory: " + ((typeof (v = lp(ctx, "cwd")) === "function" ? amb(v, ctx, "cwd", { root: ctx }, 5, 21, 5, 28) : v) ?? "") + "\n- Git repository: " + (truthy(fv(lp(ctx, "isGitRepo"), ctx)) ? "yes" : "no") + "\n";
    if (truthy(fv(lp(ctx, "additionalDirectories"), ctx))) {
      o1 += "- Additional working directories: ";
      x2 = fv(lp(ctx, "additionalDirectories"), ctx);
      k3 = null;
      n4 = 0;
      if (x2 && typeof x2 === "object") {
        if (!isArray(x2)) [k3, x2] = entries(x2);
        n4 = x2.length;
        for (i5 = 0; i5 < n4; i5++) {
          if (!(i5 in x2)) continue;
          c6 = x2[i5];
          o1 += (((typeof (v = c6) === "function" ? v.call(c6) : v) ?? "") + ((i5 === n4 - 1) ? "" : ", "));
        }
      }
      o1 += "\n";
    }
    o1 += "- Platform: " + ((typeof (v = lp(ctx, "platform")) === "function" ? amb(v, ctx, "platform", { root: ctx }, 10, 12, 10, 24) : v) ?? "") + "\n" + (truthy(fv(lp(ctx, "osVersion"), ctx)) ? ("- OS version: " + ((typeof (v = lp(ctx, "osVersion")) === "function" ? amb(v, ctx, "osVersion", { root: ctx }, 12, 14, 12, 27) : v) ?? "") + "\n") : "") + (truthy(fv(lp(ctx, "shell"), ctx)) ? ("- Shell: " + ((typeof (v = lp(ctx, "shell")) === "function" ? amb(v, ctx, "shell", { root: ctx }, 15, 9, 15, 18) : v) ?? "") + "\n") : "") + (truthy(fv(lp(ctx, "model"), ctx)) ? ("- Model: " + ((typeof (v = lp(ctx, "model")) === "function" ? amb(v, ctx, "model", { root: ctx }, 18, 9, 18, 18) : v) ?? "") + "\n") : "") + (truthy(fv(lp(ctx, "knowledgeCutoff"), ctx)) ? ("\nYour training data ends around " + ((typeof (v = lp(ctx, "knowledgeCutoff")) === "function" ? amb(v, ctx, "knowledgeCutoff", { root: ctx }, 22, 31, 22, 50) : v) ?? "") + "; tools, libraries and versions released after that may exist that you do not know about.\n") : "");
    return o1;
  };
}
