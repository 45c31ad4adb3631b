export default function create(rt) {
  // Section "user-context": its Handlebars template compiled to plain JavaScript.
  // Renders exactly what Handlebars.compile(template, { noEscape: true }) renders.
  const NC = Object.seal({});
  const own = Object.prototype.hasOwnProperty;
  const OP = Object.prototype;
  const gp = Object.getPrototypeOf;
  const isArray = Array.isArray;
  function fv(v, self) {
    return typeof v === "function" ? v.call(self) : v;
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
      if (ctx.entries === undefined) rt.missing("user-context", "entries");
      let v, o1, x2, k3, n4, i5, c6;
      o1 = "<system-reminder>\nAs you answer the user's questions, you can use the following context:\n";
      x2 = fv((ctx == null ? ctx : (v = ctx.entries) == null ? v : (gp(ctx) === OP && !("entries" in OP)) || own.call(ctx, "entries") ? v : undefined), ctx);
      k3 = null;
      n4 = 0;
      if (x2 && typeof x2 === "object") {
        if (!isArray(x2)) [k3, x2] = entries(x2);
        n4 = x2.length;
        for (i5 = 0; i5 < n4; i5++) {
          if (!(i5 in x2)) continue;
          c6 = x2[i5];
          o1 += ("# " + (typeof (v = (typeof (v = (c6 == null ? c6 : (v = c6.key) == null ? v : (gp(c6) === OP && !("key" in OP)) || own.call(c6, "key") ? v : undefined)) === "function" ? amb(v, (c6 ?? NC), "key", { root: ctx, _parent: { root: ctx }, key: (k3 === null ? i5 : k3[i5]), index: i5, first: (i5 === 0), last: (i5 === n4 - 1) }, 4, 2, 4, 9) : v)) === "string" ? v : v == null ? "" : rt.text(v, "user-context", "key")) + "\n" + (typeof (v = (typeof (v = (c6 == null ? c6 : (v = c6.value) == null ? v : (gp(c6) === OP && !("value" in OP)) || own.call(c6, "value") ? v : undefined)) === "function" ? amb(v, (c6 ?? NC), "value", { root: ctx, _parent: { root: ctx }, key: (k3 === null ? i5 : k3[i5]), index: i5, first: (i5 === 0), last: (i5 === n4 - 1) }, 5, 0, 5, 9) : v)) === "string" ? v : v == null ? "" : rt.text(v, "user-context", "value")) + "\n");
        }
      }
      o1 += "\nIMPORTANT: this context may or may not be relevant to your tasks. You should not respond to this context unless it is highly relevant to your task.\n</system-reminder>\n";
      return o1;
    } catch (error) {
      throw rt.failed("user-context", error);
    }
  };
}
