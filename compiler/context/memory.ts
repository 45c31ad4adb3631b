/**
 * The memory section (docs/context.md#memory). A memory directory holds one Markdown file per
 * memory (frontmatter `name`, `description`, `type`) and an index, `MEMORY.md`,
 * with one line per memory. The index is loaded into the prompt, cut at 200
 * lines and 25,000 bytes with a warning the model can see (an index that grows
 * without bound would eat the context window); the memory files are read by the
 * model when it needs them, so here they are only checked, and a malformed one
 * is listed in the section (the model maintains these files and can fix it).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_LIMITS } from '../core/options.js';

export const MEMORY_INDEX = 'MEMORY.md';
export const MAX_INDEX_LINES = 200;
export const MAX_INDEX_BYTES = 25_000;
export const MEMORY_TYPES = ['user', 'feedback', 'project', 'reference'] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

export interface MemoryOptions {
  /** Absolute; created (with its parents) when missing. */
  memoryDir: string;
}

export interface MemoryIndex {
  /** The index as loaded: whole, or cut at a line boundary. */
  content: string;
  /** Size of the whole file, for the warning; null when it was loaded whole. */
  truncatedFrom: { lines: number; bytes: number } | null;
}

export interface MemoryProblem {
  /** POSIX path relative to the memory directory. */
  file: string;
  message: string;
}

export interface MemorySnapshot {
  dir: string;
  index: MemoryIndex;
  /** Memory files whose frontmatter is missing, unreadable, or incomplete. */
  problems: MemoryProblem[];
}

/**
 * The memory section as the model reads it: what the directory is for, the
 * four memory types, the index (with the truncation warning), and the memory
 * files that need fixing. Null when the directory cannot be created or read:
 * then there is no memory to offer.
 */
export async function loadMemoryPrompt(options: MemoryOptions): Promise<string | null> {
  const snapshot = await loadMemory(options);
  return snapshot && renderMemoryPrompt(snapshot);
}

/** The memory directory read and checked; null when it cannot be created or read. */
export async function loadMemory({ memoryDir }: MemoryOptions): Promise<MemorySnapshot | null> {
  let entries: string[];
  try {
    await fs.mkdir(memoryDir, { recursive: true });
    entries = await fs.readdir(memoryDir, { recursive: true });
  } catch {
    return null;
  }
  const memoryFiles = entries
    .map((entry) => entry.split(path.sep).join('/'))
    .filter((entry) => entry.toLowerCase().endsWith('.md') && entry !== MEMORY_INDEX)
    .sort();
  const realDir = await fs.realpath(memoryDir).catch(() => memoryDir);
  const [index, checks] = await Promise.all([
    readIndex(realDir),
    Promise.all(memoryFiles.map((file) => checkMemoryFile(realDir, file))),
  ]);
  const problems = [...(index.problem ? [index.problem] : []), ...checks.filter((p): p is MemoryProblem => p !== null)];
  return { dir: memoryDir, index: index.index, problems };
}

/** Larger than any index worth reading; the prompt shows only the first 25,000 bytes anyway. */
const MAX_INDEX_READ = 4 * 1024 * 1024;

/**
 * A memory file's real path, or why it is not read: a symlink may not lead out
 * of the memory directory (what it names would be quoted to the model).
 */
async function confined(realDir: string, file: string): Promise<{ ok: true; real: string } | { ok: false; problem: MemoryProblem | null }> {
  let real: string;
  try {
    real = await fs.realpath(path.join(realDir, file));
  } catch {
    return { ok: false, problem: null }; // missing (or a broken link): nothing to read
  }
  const rel = path.relative(realDir, real);
  if (rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) {
    return { ok: false, problem: { file, message: 'is a symlink leading outside the memory directory; not read' } };
  }
  return { ok: true, real };
}

/** Lines first, then bytes, always at a line boundary so no entry is half shown. */
function truncateIndex(text: string): MemoryIndex {
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
  const bytes = Buffer.byteLength(text);
  if (lines.length <= MAX_INDEX_LINES && bytes <= MAX_INDEX_BYTES) return { content: text, truncatedFrom: null };
  let content = lines.slice(0, MAX_INDEX_LINES).join('\n');
  if (Buffer.byteLength(content) > MAX_INDEX_BYTES) {
    // Decoding a byte prefix may end in half a character (U+FFFD); cutting at the last newline drops it.
    const prefix = Buffer.from(content).subarray(0, MAX_INDEX_BYTES).toString('utf8');
    const cut = prefix.lastIndexOf('\n');
    content = cut > 0 ? prefix.slice(0, cut) : prefix.replace(/\uFFFD$/, '');
  }
  return { content, truncatedFrom: { lines: lines.length, bytes } };
}

/**
 * The index, read as any source is (regular file, bounded, text), inside the
 * memory directory. None yet means no memories saved; one that cannot be used
 * is listed among the files to fix, never read through.
 */
async function readIndex(realDir: string): Promise<{ index: MemoryIndex; problem: MemoryProblem | null }> {
  const empty = (problem: MemoryProblem | null) => ({ index: truncateIndex(''), problem });
  const where = await confined(realDir, MEMORY_INDEX);
  if (!where.ok) return empty(where.problem);
  const [{ normaliseText, readTextFile }, { describeTextProblem }] = await Promise.all([import('../markdown/source.js'), import('../markdown/text-check.js')]);
  const read = await readTextFile(where.real, MAX_INDEX_READ);
  if (read.ok) return { index: truncateIndex(normaliseText(read.bytes)), problem: null };
  const { failure } = read;
  if (failure.kind === 'missing') return empty(null);
  const message =
    failure.kind === 'not-a-file' ? `is ${failure.what}, not a regular file`
    : failure.kind === 'too-large' ? `is ${fmt(failure.bytes)} bytes, over the ${fmt(MAX_INDEX_READ)}-byte limit`
    : failure.kind === 'text' ? describeTextProblem(failure.problem)
    : `cannot be read (${failure.kind})`;
  return empty({ file: MEMORY_INDEX, message });
}

async function checkMemoryFile(dir: string, file: string): Promise<MemoryProblem | null> {
  const problem = (message: string): MemoryProblem => ({ file, message });
  // The Markdown reader only when there are memories to check.
  const [{ normaliseText, parseSource, readTextFile }, { describeTextProblem }] = await Promise.all([import('../markdown/source.js'), import('../markdown/text-check.js')]);
  const where = await confined(dir, file);
  if (!where.ok) return where.problem;
  const read = await readTextFile(where.real, DEFAULT_LIMITS.maxBytes);
  if (!read.ok) {
    if (read.failure.kind === 'not-a-file') return null;
    return problem(read.failure.kind === 'text' ? describeTextProblem(read.failure.problem) : `cannot be read (${read.failure.kind})`);
  }
  const text = normaliseText(read.bytes);
  if (!text.startsWith('---')) return problem('has no frontmatter (name, description, type)');
  const parsed = parseSource(text, DEFAULT_LIMITS.extensions);
  const yamlProblem = parsed.problems[0];
  if (yamlProblem) return problem(`frontmatter is not valid YAML: ${yamlProblem.message}`);
  const { name, description, type } = parsed.data;
  const missing = Object.entries({ name, description }).filter(([, v]) => typeof v !== 'string' || v.trim() === '');
  if (missing.length > 0) return problem(`frontmatter lacks ${missing.map(([k]) => `\`${k}\``).join(' and ')}`);
  if (!MEMORY_TYPES.includes(type as MemoryType)) {
    return problem(`frontmatter \`type\` is ${JSON.stringify(type ?? null)}; expected one of ${MEMORY_TYPES.join(', ')}`);
  }
  return null;
}

function renderMemoryPrompt({ dir, index, problems }: MemorySnapshot): string {
  const parts = [
    '# Memory',
    `You have a persistent memory directory at \`${dir}\`. What you save there is loaded into future conversations, ` +
      'so keep what will still matter later and is not already in the code, the git history or the instruction files.',
    [
      'Each memory is one Markdown file with frontmatter: `name` (a short title), ' +
        '`description` (one line: when it is useful) and `type`, one of:',
      '- user: who the user is: role, expertise, how they like to work.',
      '- feedback: corrections and confirmations of your approach: what to repeat, what to avoid, and why.',
      '- project: facts about the ongoing work (goals, decisions, deadlines) that the code does not show.',
      '- reference: where to find things outside the repository: dashboards, tickets, documents.',
    ].join('\n'),
    `\`${MEMORY_INDEX}\` is the index: one line per memory linking its file (\`- [Title](file.md): hook\`). ` +
      'Keep each line short and put details in the file. Update or remove memories that turn out to be wrong.',
    `## ${MEMORY_INDEX}`,
    index.content.trim() === '' ? '(empty: no memories saved yet)' : index.content.trimEnd(),
  ];
  if (index.truncatedFrom) parts.push(truncationWarning(index.truncatedFrom));
  if (problems.length > 0) {
    parts.push(
      '## Memory files to fix\nThese files cannot be used as memories until their frontmatter is fixed:\n' +
        problems.map((p) => `- \`${p.file}\`: ${p.message}`).join('\n'),
    );
  }
  return parts.join('\n\n');
}

function truncationWarning(whole: { lines: number; bytes: number }): string {
  const over = [
    ...(whole.lines > MAX_INDEX_LINES ? [`${fmt(whole.lines)} lines (limit: ${MAX_INDEX_LINES} lines)`] : []),
    ...(whole.bytes > MAX_INDEX_BYTES ? [`${fmt(whole.bytes)} bytes (limit: ${fmt(MAX_INDEX_BYTES)} bytes)`] : []),
  ];
  return (
    `> WARNING: ${MEMORY_INDEX} is ${over.join(' and ')}, so only its beginning was loaded. ` +
    'Shorten it: one line per memory, details in the memory files.'
  );
}

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}
