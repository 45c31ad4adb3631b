/**
 * Usage logs read as a stream (docs/usage.md#reading-a-log-prompt-build-usage): one
 * JSON record per line, as `jsonlUsageSink` writes them, each checked whole
 * so the aggregation never meets a field of the wrong type — or, told apart
 * line by line, an OpenTelemetry JSON export's batch of spans
 * (`otlp-spans.ts`). Several logs
 * (one per process or per day) are merged by time, a chunk of each (1 MiB,
 * and a line up to 64 Ki characters, an OTLP line up to 16 Mi) in memory at
 * a time: a log of any length is read in bounded memory.
 */
import fs from 'node:fs';
import { FileRefused } from '../runtime/read-regular-file.js';
import { USAGE_PROVIDERS, USAGE_RECORD_VERSION, type UsageRecord } from '../runtime/usage.js';
import { parseIsoTime } from '../runtime/usage-time.js';
import { looksLikeOtlp, parseOtlpLine } from './otlp-spans.js';

/** A record and its time in milliseconds. */
export interface TimedRecord {
  record: UsageRecord;
  ms: number;
}

/** A line left out, and why. */
export interface SkippedLine {
  file: string;
  line: number;
  problem: string;
}

/** Longer lines are not records (a record is well under a kilobyte); they are skipped, not parsed. */
const MAX_LINE_CHARS = 64 * 1024;
/** An OpenTelemetry export writes a batch of spans per line (a span of ours is about 1.5 kB): longer ones are skipped. */
const MAX_OTLP_LINE_CHARS = 16 * 1024 * 1024;

const lineLimit = (text: string): number => (looksLikeOtlp(text) ? MAX_OTLP_LINE_CHARS : MAX_LINE_CHARS);

/** The record on one line, or why it is not one. */
export function parseUsageLine(text: string): TimedRecord | string {
  if (text.length > MAX_LINE_CHARS) return `longer than ${MAX_LINE_CHARS} characters`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  const problem = recordProblem(value);
  if (problem !== null) return problem;
  const record = value as UsageRecord;
  return { record, ms: parseIsoTime(record.time) };
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const isText = (value: unknown): value is string | null => value === null || typeof value === 'string';
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const PROVIDERS: ReadonlySet<string> = new Set(USAGE_PROVIDERS);
const TEXT_FIELDS = ['api', 'model', 'profile', 'agent', 'staticPrefixHash', 'bundle', 'ttl', 'responseId', 'requestId', 'session'] as const;
const COUNTS = ['read', 'written', 'uncached', 'input', 'output'] as const;

function recordProblem(value: unknown): string | null {
  if (!isObject(value)) return 'not a usage record (a JSON object)';
  if (value.v !== USAGE_RECORD_VERSION) return `not a usage record of version ${USAGE_RECORD_VERSION} (v: ${JSON.stringify(value.v) ?? 'absent'})`;
  // As the runtime reads a time it is given: Date.parse would take any text it can guess at, in the machine's zone when it names none.
  if (typeof value.time !== 'string' || Number.isNaN(parseIsoTime(value.time))) return 'time is not an ISO 8601 time';
  if (!PROVIDERS.has(value.provider as string)) return `provider is not one of ${USAGE_PROVIDERS.join(', ')}`;
  for (const key of TEXT_FIELDS) if (!isText(value[key])) return `${key} is not a string or null`;
  const tokens = value.tokens;
  if (!isObject(tokens)) return 'tokens is not an object';
  for (const key of COUNTS) if (!isCount(tokens[key])) return `tokens.${key} is not a whole number`;
  for (const key of ['written5m', 'written1h'] as const) if (tokens[key] !== null && !isCount(tokens[key])) return `tokens.${key} is not a whole number or null`;
  const miss = value.miss;
  if (miss !== null && miss !== undefined) {
    if (!isObject(miss) || typeof miss.reason !== 'string') return 'miss has no reason';
    if (miss.missedTokens !== null && miss.missedTokens !== undefined && !isCount(miss.missedTokens)) return 'miss.missedTokens is not a whole number';
    if (miss.sections !== undefined && !(Array.isArray(miss.sections) && miss.sections.every((s) => isObject(s) && typeof s.name === 'string' && typeof s.change === 'string'))) {
      return 'miss.sections is not a list of sections';
    }
  }
  return null;
}

const C = fs.constants;
/** As read-regular-file.ts opens a file: a FIFO or a device put where a log was neither blocks the open nor is read. */
const OPEN_FLAGS = C.O_RDONLY | (C.O_NONBLOCK ?? 0) | (C.O_NOCTTY ?? 0);

/** An open descriptor of the log `file`, checked on the open file (`fstat`) to be a regular one: not a FIFO swapped in after a check by name. */
export function openUsageLog(file: string): number {
  const fd = fs.openSync(file, OPEN_FLAGS);
  try {
    if (fs.fstatSync(fd).isFile()) return fd;
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
  fs.closeSync(fd);
  // Named here: the reader meets this only when the log was swapped after the command checked it by name.
  throw new FileRefused('not-a-file', `${file} is not a regular file`);
}

/** Bytes read at a time: a chunk's records are parsed in one go, so the loop over them awaits nothing. */
const CHUNK_BYTES = 1 << 20;

/** One log, read a chunk at a time into a buffer of parsed records. */
class LogReader {
  /** Records of the chunks read so far, from `next` on. */
  private records: TimedRecord[] = [];
  private next = 0;
  private rest = '';
  private lineNumber = 0;
  /** Inside a line too long to be a record, until its end. */
  private discarding = false;
  private readonly chunks: AsyncIterator<string>;
  done = false;

  constructor(
    private readonly file: string,
    fd: number,
    private readonly skipped: (line: SkippedLine) => void,
  ) {
    // With `fd` given, the stream reads it and ignores the path: the file checked is the file read.
    this.chunks = fs.createReadStream(file, { fd, encoding: 'utf8', highWaterMark: CHUNK_BYTES })[Symbol.asyncIterator]();
  }

  /** The first record not yet taken, reading on as needed; undefined at the end. */
  async head(): Promise<TimedRecord | undefined> {
    while (this.next === this.records.length && !this.done) await this.fill();
    return this.records[this.next];
  }

  /** The head without reading: only after `head()` found one, or while the buffer holds more. */
  peek(): TimedRecord | undefined {
    return this.records[this.next];
  }

  take(): void {
    this.next++;
  }

  private async fill(): Promise<void> {
    const { value, done } = await this.chunks.next();
    let text = done ? this.rest : this.rest + (value as string);
    if (this.discarding) {
      // The rest of a line already skipped as too long: up to its end, it is not read.
      const end = text.indexOf('\n');
      text = end === -1 ? '' : text.slice(end + 1);
      this.discarding = end === -1 && !done;
      if (end !== -1) this.lineNumber++;
    }
    const lines = text.split('\n');
    this.rest = done ? '' : lines.pop()!;
    this.records = [];
    this.next = 0;
    for (const raw of lines) {
      this.lineNumber++;
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      // A blank line is skipped; `trim` only where it can be one (it copies the line).
      if (line === '' || (line.charCodeAt(0) <= 0x20 && line.trim() === '')) continue;
      if (looksLikeOtlp(line)) this.readOtlp(line);
      else {
        const parsed = parseUsageLine(line);
        if (typeof parsed === 'string') this.skipped({ file: this.file, line: this.lineNumber, problem: parsed });
        else this.records.push(parsed);
      }
    }
    const limit = this.rest.length > MAX_LINE_CHARS ? lineLimit(this.rest) : MAX_LINE_CHARS;
    if (this.rest.length > limit) {
      // A line longer than any record: named once, then skipped to its end without being held (memory stays bounded).
      this.skipped({ file: this.file, line: this.lineNumber + 1, problem: `longer than ${limit} characters` });
      [this.rest, this.discarding] = ['', true];
    }
    if (done) this.done = true;
  }

  private readOtlp(line: string): void {
    const parsed = line.length > MAX_OTLP_LINE_CHARS ? `longer than ${MAX_OTLP_LINE_CHARS} characters` : parseOtlpLine(line);
    if (typeof parsed === 'string') return this.skipped({ file: this.file, line: this.lineNumber, problem: parsed });
    for (const problem of parsed.problems) this.skipped({ file: this.file, line: this.lineNumber, problem });
    for (const record of parsed.records) this.records.push(record);
  }
}

/**
 * Every record of `files`, in time order, to `take`: each log assumed in the
 * order it was appended, the earliest head among the logs goes first. A
 * record out of order inside one log is kept where it stands.
 */
export async function mergeRecords(files: readonly string[], skipped: (line: SkippedLine) => void, take: (record: TimedRecord) => void): Promise<void> {
  const fds: number[] = [];
  try {
    for (const file of files) fds.push(openUsageLog(file));
  } catch (error) {
    for (const fd of fds) fs.closeSync(fd);
    throw error;
  }
  const logs = files.map((file, index) => new LogReader(file, fds[index]!, skipped));
  for (;;) {
    const heads = await Promise.all(logs.map((log) => log.head()));
    if (heads.every((head) => head === undefined)) return;
    // Take records while every log still has one buffered: the loop awaits only when a buffer runs dry.
    for (;;) {
      let first = -1;
      let firstMs = Infinity;
      let dry = false;
      for (let index = 0; index < logs.length; index++) {
        const head = logs[index]!.peek();
        if (head === undefined) {
          if (!logs[index]!.done) dry = true;
          continue;
        }
        if (first === -1 || head.ms < firstMs) [first, firstMs] = [index, head.ms];
      }
      if (dry || first === -1) break;
      take(logs[first]!.peek()!);
      logs[first]!.take();
    }
  }
}
