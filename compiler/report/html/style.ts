/** The page's stylesheet, inline (the page loads nothing). */
export const PAGE_STYLE = `
:root { --static: #2f6fb5; --cached: #d8902b; --uncached: #c0392b; --ink: #1d232b; --muted: #5d6875; --line: #d9dee4; --bg: #f6f7f9; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: var(--bg); }
header { padding: 16px 24px 8px; background: #fff; border-bottom: 1px solid var(--line); }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 28px 0 10px; }
h3 { font-size: 15px; margin: 0 0 6px; }
h3 small, .muted { color: var(--muted); font-weight: normal; }
nav a { margin-right: 14px; }
code, pre, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 12.5px; }
.layout { display: grid; grid-template-columns: minmax(0, 1fr) 320px; gap: 20px; padding: 0 24px 40px; }
aside { position: sticky; top: 12px; align-self: start; margin-top: 28px; background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 12px; }
aside h2 { margin: 0 0 8px; font-size: 15px; }
#source-where { font-weight: 600; overflow-wrap: anywhere; }
#source-text { white-space: pre-wrap; background: var(--bg); padding: 6px; margin: 8px 0 0; min-height: 1.5em; }
.legend span { display: inline-block; margin-right: 14px; }
.swatch { display: inline-block; width: 12px; height: 12px; vertical-align: -2px; margin-right: 4px; border-radius: 2px; }
.profile { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 12px 14px; margin-bottom: 14px; }
.profile.bust { border: 2px solid var(--uncached); }
.track { position: relative; height: 34px; margin: 26px 0 8px; background: repeating-linear-gradient(90deg, transparent 0 49px, #eef0f3 49px 50px); }
.bar { display: flex; height: 100%; min-width: 4px; }
.seg { display: block; min-width: 2px; height: 100%; border-right: 1px solid #fff; }
.seg.static { background: var(--static); }
.seg.cached { background: var(--cached); }
.seg.uncached { background: repeating-linear-gradient(45deg, var(--uncached) 0 5px, #e57368 5px 10px); }
.seg:hover { filter: brightness(1.2); }
.boundary { flex: none; width: 0; border-left: 3px solid var(--ink); margin: -8px 0; position: relative; }
.boundary::before { content: "boundary"; position: absolute; top: -17px; left: -28px; font-size: 11px; font-weight: 600; }
.min { position: absolute; top: -6px; bottom: -6px; border-left: 2px dashed #7b3fa0; }
.min span { position: absolute; left: 4px; font-size: 11px; color: #7b3fa0; white-space: nowrap; background: rgba(255,255,255,.85); }
.facts { margin: 18px 0 6px; color: var(--muted); }
table { border-collapse: collapse; margin: 6px 0; }
th, td { border-bottom: 1px solid var(--line); padding: 3px 10px 3px 0; text-align: left; vertical-align: top; }
td.n, th.n { text-align: right; }
.warn { color: var(--uncached); font-weight: 600; }
.ok { color: #1e7b3c; }
details.text-entry { background: #fff; border: 1px solid var(--line); border-radius: 6px; margin-bottom: 8px; }
details.text-entry > summary { cursor: pointer; padding: 6px 10px; }
.entry-facts { padding: 0 10px; margin: 4px 0; color: var(--muted); }
pre.lines { margin: 0; padding: 6px 0; overflow-x: auto; border-top: 1px solid var(--line); }
.run { display: block; }
.from { display: block; padding: 2px 10px 2px 64px; color: var(--muted); background: #eef3f9; font-size: 11.5px; }
.ln { display: block; white-space: pre-wrap; padding-left: 64px; text-indent: -52px; min-height: 1.45em; cursor: pointer; }
.ln::before { content: attr(data-line); display: inline-block; width: 44px; margin-right: 8px; text-align: right; color: #98a1ab; text-indent: 0; }
.ln:hover { background: #f1f5fb; }
.ln.selected { background: #fff2c6; }
.bust-banner { background: var(--uncached); color: #fff; padding: 12px 14px; border-radius: 6px; font-size: 15px; }
.bust-banner strong { font-size: 17px; }
pre.diff { margin: 0; padding: 6px 10px; overflow-x: auto; border-top: 1px solid var(--line); }
.dl { display: block; white-space: pre-wrap; }
.dl.add { background: #e3f6e8; }
.dl.del { background: #fbe4e2; }
.dl.hunk { color: #7b3fa0; }
body > .failure { margin: 0; padding: 14px 24px; background: #fbe4e2; border-bottom: 3px solid var(--uncached); }
body > .failure pre { white-space: pre-wrap; margin: 8px 0 0; }
`;
