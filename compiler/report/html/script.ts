/**
 * The page's one inline script (allowed by its hash in the
 * Content-Security-Policy). It reads the DOM and writes only with
 * `textContent`: nothing from a bundle is ever parsed as HTML here either.
 * Clicking a line shows where it is written; hovering shows the include chain.
 */
export const PAGE_SCRIPT = `(() => {
  const where = document.getElementById('source-where');
  const section = document.getElementById('source-section');
  const chain = document.getElementById('source-chain');
  const text = document.getElementById('source-text');
  const origin = (line) => {
    const run = line.closest('.run');
    const owner = line.closest('[data-name]');
    const via = run.dataset.chain ? run.dataset.chain.split('\\n') : [];
    return { file: run.dataset.file, line: line.dataset.line, via, owner: owner ? owner.dataset.name : '' };
  };
  const lineAt = (target) => (target instanceof Element ? target.closest('.ln') : null);
  document.addEventListener('click', (event) => {
    const line = lineAt(event.target);
    if (!line) return;
    const previous = document.querySelector('.ln.selected');
    if (previous) previous.classList.remove('selected');
    line.classList.add('selected');
    const o = origin(line);
    where.textContent = o.file + ':' + o.line;
    section.textContent = o.owner;
    chain.textContent = o.via.length > 0 ? 'included through ' + o.via.join(' \\u2192 ') : 'written in the text\\u2019s own source file';
    text.textContent = line.textContent;
  });
  document.addEventListener('mouseover', (event) => {
    const line = lineAt(event.target);
    if (!line || line.title) return;
    const o = origin(line);
    line.title = o.file + ':' + o.line + (o.via.length > 0 ? '\\nvia ' + o.via.join(' \\u2192 ') : '');
  });
})();
`;

/**
 * Only in the page `watch --serve` serves: reload when the server says a
 * build finished, keeping the scroll position across the reload.
 */
export const LIVE_SCRIPT = `(() => {
  const key = 'prompt-build-scroll';
  const saved = Number(sessionStorage.getItem(key));
  if (saved > 0) window.scrollTo(0, saved);
  const events = new EventSource('/events');
  const reload = () => {
    sessionStorage.setItem(key, String(window.scrollY));
    events.close();
    location.reload();
  };
  events.addEventListener('reload', reload);
  // A build that finished between this page's load and its stream's opening: reload for it too.
  const shown = document.querySelector('meta[name="prompt-build-generation"]')?.getAttribute('content');
  events.addEventListener('generation', (event) => {
    if (shown !== null && shown !== undefined && event.data !== shown) reload();
  });
})();
`;
