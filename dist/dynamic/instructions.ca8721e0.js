export default function create(rt) {
  // Section "instructions": its Handlebars template compiled to plain JavaScript.
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
      if (ctx.files === undefined) rt.missing("instructions", "files");
      let v, o1, x2, k3, n4, i5, c6, c7;
      o1 = "Instructions from the user and the codebase are shown below, each under the path and kind of the file it comes from. Follow them exactly as written: they override default behaviour. Where two disagree, the later one takes precedence.";
      x2 = fv((ctx == null ? ctx : (v = ctx.files) == null ? v : (gp(ctx) === OP && !("files" in OP)) || own.call(ctx, "files") ? v : undefined), ctx);
      k3 = null;
      n4 = 0;
      if (x2 && typeof x2 === "object") {
        if (!isArray(x2)) [k3, x2] = entries(x2);
        n4 = x2.length;
        for (i5 = 0; i5 < n4; i5++) {
          if (!(i5 in x2)) continue;
          c6 = x2[i5];
          o1 += ("\n\nContents of " + (typeof (v = (typeof (v = (c6 == null ? c6 : (v = c6.path) == null ? v : (gp(c6) === OP && !("path" in OP)) || own.call(c6, "path") ? v : undefined)) === "function" ? amb(v, (c6 ?? NC), "path", { root: ctx, _parent: { root: ctx }, key: (k3 === null ? i5 : k3[i5]), index: i5, first: (i5 === 0), last: (i5 === n4 - 1) }, 3, 12, 3, 20) : v)) === "string" ? v : v == null ? "" : rt.text(v, "instructions", "path")) + " (" + (truthy(fv((c6 == null ? c6 : (v = c6.includedBy) == null ? v : (gp(c6) === OP && !("includedBy" in OP)) || own.call(c6, "includedBy") ? v : undefined), (c6 ?? NC))) ? (c7 = (c6 ?? NC), "include: included by " + (typeof (v = (typeof (v = (c7 == null ? c7 : (v = c7.includedBy) == null ? v : (gp(c7) === OP && !("includedBy" in OP)) || own.call(c7, "includedBy") ? v : undefined)) === "function" ? amb(v, c7, "includedBy", { root: ctx, _parent: { root: ctx }, key: (k3 === null ? i5 : k3[i5]), index: i5, first: (i5 === 0), last: (i5 === n4 - 1) }, 3, 61, 3, 75) : v)) === "string" ? v : v == null ? "" : rt.text(v, "instructions", "includedBy"))) : "") + (truthy(fv((c6 == null ? c6 : (v = c6.managed) == null ? v : (gp(c6) === OP && !("managed" in OP)) || own.call(c6, "managed") ? v : undefined), (c6 ?? NC))) ? "managed: managed policy instructions, set for every user of this machine" : "") + (truthy(fv((c6 == null ? c6 : (v = c6.user) == null ? v : (gp(c6) === OP && !("user" in OP)) || own.call(c6, "user") ? v : undefined), (c6 ?? NC))) ? "user: the user's private instructions for all projects" : "") + (truthy(fv((c6 == null ? c6 : (v = c6.project) == null ? v : (gp(c6) === OP && !("project" in OP)) || own.call(c6, "project") ? v : undefined), (c6 ?? NC))) ? "project: project instructions, checked into the codebase" : "") + (truthy(fv((c6 == null ? c6 : (v = c6.rules) == null ? v : (gp(c6) === OP && !("rules" in OP)) || own.call(c6, "rules") ? v : undefined), (c6 ?? NC))) ? "rules: rules from the project's rules folder" : "") + (truthy(fv((c6 == null ? c6 : (v = c6.local) == null ? v : (gp(c6) === OP && !("local" in OP)) || own.call(c6, "local") ? v : undefined), (c6 ?? NC))) ? "local: the user's private instructions for this project, not checked in" : "") + (truthy(fv((c6 == null ? c6 : (v = c6.added) == null ? v : (gp(c6) === OP && !("added" in OP)) || own.call(c6, "added") ? v : undefined), (c6 ?? NC))) ? "added: instructions from an additional working directory" : "") + "):\n\n" + (typeof (v = (typeof (v = (c6 == null ? c6 : (v = c6.content) == null ? v : (gp(c6) === OP && !("content" in OP)) || own.call(c6, "content") ? v : undefined)) === "function" ? amb(v, (c6 ?? NC), "content", { root: ctx, _parent: { root: ctx }, key: (k3 === null ? i5 : k3[i5]), index: i5, first: (i5 === 0), last: (i5 === n4 - 1) }, 5, 0, 5, 11) : v)) === "string" ? v : v == null ? "" : rt.text(v, "instructions", "content")));
        }
      }
      return o1;
    } catch (error) {
      throw rt.failed("instructions", error);
    }
  };
}
