export default function create(rt) {
  // Section "env-info": its Handlebars template compiled to plain JavaScript.
  // Renders exactly what Handlebars.compile(template, { noEscape: true }) renders.
  const NC = Object.seal({});
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
    try {
      if (ctx.cwd === undefined) rt.missing("env-info", "cwd");
      if (ctx.isGitRepo === undefined) rt.missing("env-info", "isGitRepo");
      if (ctx.platform === undefined) rt.missing("env-info", "platform");
      let v, o1, x2, k3, n4, i5, c6;
      o1 = "# Environment\n\nFacts about the environment you are running in:\n\n- Working directory: " + (typeof (v = (typeof (v = (ctx == null ? ctx : (v = ctx.cwd) == null ? v : (gp(ctx) === OP && !("cwd" in OP)) || own.call(ctx, "cwd") ? v : undefined)) === "function" ? amb(v, ctx, "cwd", { root: ctx }, 5, 21, 5, 28) : v)) === "string" ? v : v == null ? "" : rt.text(v, "env-info", "cwd")) + "\n- Git repository: " + (truthy(fv((ctx == null ? ctx : (v = ctx.isGitRepo) == null ? v : (gp(ctx) === OP && !("isGitRepo" in OP)) || own.call(ctx, "isGitRepo") ? v : undefined), ctx)) ? "yes" : "no") + "\n";
      if (truthy(fv((ctx == null ? ctx : (v = ctx.additionalDirectories) == null ? v : (gp(ctx) === OP && !("additionalDirectories" in OP)) || own.call(ctx, "additionalDirectories") ? v : undefined), ctx))) {
        o1 += "- Additional working directories: ";
        x2 = fv((ctx == null ? ctx : (v = ctx.additionalDirectories) == null ? v : (gp(ctx) === OP && !("additionalDirectories" in OP)) || own.call(ctx, "additionalDirectories") ? v : undefined), ctx);
        k3 = null;
        n4 = 0;
        if (x2 && typeof x2 === "object") {
          if (!isArray(x2)) [k3, x2] = entries(x2);
          n4 = x2.length;
          for (i5 = 0; i5 < n4; i5++) {
            if (!(i5 in x2)) continue;
            c6 = x2[i5];
            o1 += ((typeof (v = (typeof (v = c6) === "function" ? v.call(c6) : v)) === "string" ? v : v == null ? "" : rt.text(v, "env-info", "this")) + ((i5 === n4 - 1) ? "" : ", "));
          }
        }
        o1 += "\n";
      }
      o1 += "- Platform: " + (typeof (v = (typeof (v = (ctx == null ? ctx : (v = ctx.platform) == null ? v : (gp(ctx) === OP && !("platform" in OP)) || own.call(ctx, "platform") ? v : undefined)) === "function" ? amb(v, ctx, "platform", { root: ctx }, 10, 12, 10, 24) : v)) === "string" ? v : v == null ? "" : rt.text(v, "env-info", "platform")) + "\n" + (truthy(fv((ctx == null ? ctx : (v = ctx.osVersion) == null ? v : (gp(ctx) === OP && !("osVersion" in OP)) || own.call(ctx, "osVersion") ? v : undefined), ctx)) ? ("- OS version: " + (typeof (v = (typeof (v = (ctx == null ? ctx : (v = ctx.osVersion) == null ? v : (gp(ctx) === OP && !("osVersion" in OP)) || own.call(ctx, "osVersion") ? v : undefined)) === "function" ? amb(v, ctx, "osVersion", { root: ctx }, 12, 14, 12, 27) : v)) === "string" ? v : v == null ? "" : rt.text(v, "env-info", "osVersion")) + "\n") : "") + (truthy(fv((ctx == null ? ctx : (v = ctx.shell) == null ? v : (gp(ctx) === OP && !("shell" in OP)) || own.call(ctx, "shell") ? v : undefined), ctx)) ? ("- Shell: " + (typeof (v = (typeof (v = (ctx == null ? ctx : (v = ctx.shell) == null ? v : (gp(ctx) === OP && !("shell" in OP)) || own.call(ctx, "shell") ? v : undefined)) === "function" ? amb(v, ctx, "shell", { root: ctx }, 15, 9, 15, 18) : v)) === "string" ? v : v == null ? "" : rt.text(v, "env-info", "shell")) + "\n") : "") + (truthy(fv((ctx == null ? ctx : (v = ctx.model) == null ? v : (gp(ctx) === OP && !("model" in OP)) || own.call(ctx, "model") ? v : undefined), ctx)) ? ("- Model: " + (typeof (v = (typeof (v = (ctx == null ? ctx : (v = ctx.model) == null ? v : (gp(ctx) === OP && !("model" in OP)) || own.call(ctx, "model") ? v : undefined)) === "function" ? amb(v, ctx, "model", { root: ctx }, 18, 9, 18, 18) : v)) === "string" ? v : v == null ? "" : rt.text(v, "env-info", "model")) + "\n") : "") + (truthy(fv((ctx == null ? ctx : (v = ctx.knowledgeCutoff) == null ? v : (gp(ctx) === OP && !("knowledgeCutoff" in OP)) || own.call(ctx, "knowledgeCutoff") ? v : undefined), ctx)) ? ("\nYour training data ends around " + (typeof (v = (typeof (v = (ctx == null ? ctx : (v = ctx.knowledgeCutoff) == null ? v : (gp(ctx) === OP && !("knowledgeCutoff" in OP)) || own.call(ctx, "knowledgeCutoff") ? v : undefined)) === "function" ? amb(v, ctx, "knowledgeCutoff", { root: ctx }, 22, 31, 22, 50) : v)) === "string" ? v : v == null ? "" : rt.text(v, "env-info", "knowledgeCutoff")) + "; tools, libraries and versions released after that may exist that you do not know about.\n") : "");
      return o1;
    } catch (error) {
      throw rt.failed("env-info", error);
    }
  };
}
