/**
 * Usage logs read as a stream (docs/usage.md#reading-a-log-prompt-build-usage): one
 * JSON record per line, as `jsonlUsageSink` writes them, each checked whole
 * so the aggregation never meets a field of the wrong type. Several logs
 * (one per process or per day) are merged by time, one line of each in
 * memory at a time: a log of any length is read in bounded memory.
 */
import fs from 'node:fs';
import readline from 'node:readline';
import { USAGE_RECORD_VERSION, type UsageRecord } from '../runtime/usage.js';

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
  return { record, ms: Date.parse(record.time) };
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const isText = (value: unknown): value is string | null => value === null || typeof value === 'string';
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const PROVIDERS: ReadonlySet<string> = new Set(['anthropic', 'bedrock', 'openai', 'gemini']);
const TEXT_FIELDS = ['api', 'model', 'profile', 'agent', 'staticPrefixHash', 'bundle', 'ttl', 'responseId', 'requestId', 'session'] as const;
const COUNTS = ['read', 'written', 'uncached', 'input', 'output'] as const;

function recordProblem(value: unknown): string | null {
  if (!isObject(value)) return 'not a usage record (a JSON object)';
  if (value.v !== USAGE_RECORD_VERSION) return `not a usage record of version ${USAGE_RECORD_VERSION} (v: ${JSON.stringify(value.v) ?? 'absent'})`;
  if (typeof value.time !== 'string' || Number.isNaN(Date.parse(value.time))) return 'time is not an ISO 8601 time';
  if (!PROVIDERS.has(value.provider as string)) return 'provider is not one of anthropic, bedrock, openai, gemini';
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

/** One log read line by line, records and skipped lines as they come. */
async function* readLog(file: string, skipped: (line: SkippedLine) => void): AsyncGenerator<TimedRecord> {
  const lines = readline.createInterface({ input: fs.createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let number = 0;
  for await (const text of lines) {
    number++;
    if (text.trim() === '') continue;
    const parsed = parseUsageLine(text);
    if (typeof parsed === 'string') skipped({ file, line: number, problem: parsed });
    else yield parsed;
  }
}

/**
 * Every record of `files` in time order, each log assumed in the order it
 * was appended: the earliest head among the logs goes first. A record out
 * of order inside one log is kept where it stands.
 */
export async function* mergedRecords(files: readonly string[], skipped: (line: SkippedLine) => void): AsyncGenerator<TimedRecord> {
  const logs = files.map((file) => readLog(file, skipped));
  const heads = await Promise.all(logs.map((log) => log.next()));
  for (;;) {
    let first = -1;
    heads.forEach((head, index) => {
      if (!head.done && (first === -1 || head.value.ms < (heads[first]!.value as TimedRecord).ms)) first = index;
    });
    if (first === -1) return;
    const head = heads[first]!;
    yield head.value as TimedRecord;
    heads[first] = await logs[first]!.next();
  }
}
