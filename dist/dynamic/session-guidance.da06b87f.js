export default function create(rt) {
  // Section "session-guidance": its Handlebars template compiled to plain JavaScript.
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
      let v, o1, x2, k3, n4, i5, c6, x7, k8, n9, i10, c11;
      o1 = (truthy(fv((ctx == null ? ctx : (v = ctx.interactive) == null ? v : (gp(ctx) === OP && !("interactive" in OP)) || own.call(ctx, "interactive") ? v : undefined), ctx)) ? "# Working with the user\n\nThe user is at the terminal and sees your replies as they arrive. They can interrupt you, answer questions and approve tool calls. If a step needs something only they can do, such as signing in to a service or running a command that asks for a password, ask them to do it and tell them exactly what to run.\n\n" : "");
      if (truthy(fv((ctx == null ? ctx : (v = ctx.availableAgents) == null ? v : (gp(ctx) === OP && !("availableAgents" in OP)) || own.call(ctx, "availableAgents") ? v : undefined), ctx))) {
        o1 += "# Available agents\n\nThese agent types can be launched with the Agent tool:\n\n";
        x2 = fv((ctx == null ? ctx : (v = ctx.availableAgents) == null ? v : (gp(ctx) === OP && !("availableAgents" in OP)) || own.call(ctx, "availableAgents") ? v : undefined), ctx);
        k3 = null;
        n4 = 0;
        if (x2 && typeof x2 === "object") {
          if (!isArray(x2)) [k3, x2] = entries(x2);
          n4 = x2.length;
          for (i5 = 0; i5 < n4; i5++) {
            if (!(i5 in x2)) continue;
            c6 = x2[i5];
            o1 += ("- " + (typeof (v = (typeof (v = (c6 == null ? c6 : (v = c6.name) == null ? v : (gp(c6) === OP && !("name" in OP)) || own.call(c6, "name") ? v : undefined)) === "function" ? amb(v, (c6 ?? NC), "name", { root: ctx, _parent: { root: ctx }, key: (k3 === null ? i5 : k3[i5]), index: i5, first: (i5 === 0), last: (i5 === n4 - 1) }, 13, 2, 13, 10) : v)) === "string" ? v : v == null ? "" : rt.text(v, "session-guidance", "name")) + ": " + (typeof (v = (typeof (v = (c6 == null ? c6 : (v = c6.description) == null ? v : (gp(c6) === OP && !("description" in OP)) || own.call(c6, "description") ? v : undefined)) === "function" ? amb(v, (c6 ?? NC), "description", { root: ctx, _parent: { root: ctx }, key: (k3 === null ? i5 : k3[i5]), index: i5, first: (i5 === 0), last: (i5 === n4 - 1) }, 13, 12, 13, 27) : v)) === "string" ? v : v == null ? "" : rt.text(v, "session-guidance", "description")) + "\n");
          }
        }
        o1 += "\n";
      }
      if (truthy(fv((ctx == null ? ctx : (v = ctx.skills) == null ? v : (gp(ctx) === OP && !("skills" in OP)) || own.call(ctx, "skills") ? v : undefined), ctx))) {
        o1 += "# Skills\n\nThese skills are installed. When a task matches a skill's description, load the skill and follow it before starting the work yourself:\n\n";
        x7 = fv((ctx == null ? ctx : (v = ctx.skills) == null ? v : (gp(ctx) === OP && !("skills" in OP)) || own.call(ctx, "skills") ? v : undefined), ctx);
        k8 = null;
        n9 = 0;
        if (x7 && typeof x7 === "object") {
          if (!isArray(x7)) [k8, x7] = entries(x7);
          n9 = x7.length;
          for (i10 = 0; i10 < n9; i10++) {
            if (!(i10 in x7)) continue;
            c11 = x7[i10];
            o1 += ("- " + (typeof (v = (typeof (v = (c11 == null ? c11 : (v = c11.name) == null ? v : (gp(c11) === OP && !("name" in OP)) || own.call(c11, "name") ? v : undefined)) === "function" ? amb(v, (c11 ?? NC), "name", { root: ctx, _parent: { root: ctx }, key: (k8 === null ? i10 : k8[i10]), index: i10, first: (i10 === 0), last: (i10 === n9 - 1) }, 23, 2, 23, 10) : v)) === "string" ? v : v == null ? "" : rt.text(v, "session-guidance", "name")) + ": " + (typeof (v = (typeof (v = (c11 == null ? c11 : (v = c11.description) == null ? v : (gp(c11) === OP && !("description" in OP)) || own.call(c11, "description") ? v : undefined)) === "function" ? amb(v, (c11 ?? NC), "description", { root: ctx, _parent: { root: ctx }, key: (k8 === null ? i10 : k8[i10]), index: i10, first: (i10 === 0), last: (i10 === n9 - 1) }, 23, 12, 23, 27) : v)) === "string" ? v : v == null ? "" : rt.text(v, "session-guidance", "description")) + "\n");
          }
        }
      }
      return o1;
    } catch (error) {
      throw rt.failed("session-guidance", error);
    }
  };
}
