/**
 * A service's usage recorder (docs/usage.md#recording-usage): each response read into a
 * record (`recordUsage`), the record sent to every sink, and — for the
 * sessions that ask for cache diagnostics — the previous response's id
 * threaded into the next request, so that a `system_changed` miss names the
 * static sections that changed between the two prompts, even across two
 * bundles (a deploy in the middle of a session).
 *
 * A sink that throws never fails the request it records: the error goes to
 * `onError` (by default, nowhere).
 */
import { ArgumentError, checkBundle, checkFunction, checkOptionalBoolean, checkString, optionsOf } from './arguments.js';
import type { Bundle } from './bundle.js';
import { promptSourceOf, staticPrefixHashOf, type SystemPrompt } from './system-prompt.js';
import { bundleIdentity, staticSectionsOf, type StaticSection } from './usage-bundle.js';
import { sectionChanges } from './usage-sections.js';
import { usageRecordOf, type RecordUsageOptions, type UsageRecord } from './usage.js';

/** Where records go: a function of the record (`jsonlUsageSink`, `createOpenTelemetryUsageSink`, or your own). */
export type UsageSink = (record: UsageRecord) => void;

export interface UsageRecorderOptions {
  sinks?: readonly UsageSink[];
  /** The bundle the prompts come from: its identity goes in every record, its sections name what a miss changed. */
  bundle?: Bundle;
  /** Remember each session's last response, for Anthropic's cache diagnostics (`diagnosticsFor`). */
  diagnostics?: boolean;
  /** How many sessions to remember, the least recently recorded forgotten first; default 10,000. */
  maxSessions?: number;
  /** Called with what a sink threw; the record is still returned and sent to the other sinks. */
  onError?: (error: unknown, record: UsageRecord) => void;
}

export interface RecordOptions extends Omit<RecordUsageOptions, 'bundle' | 'previousResponseId'> {
  /** The bundle this prompt came from, when not the recorder's (two bundles live at once). */
  bundle?: Bundle;
}

export interface UsageRecorder {
  /**
   * The `diagnostics` parameter of a session's next Anthropic request:
   * `{previous_message_id}` of its last recorded response (null on its first,
   * which opts in). Ask for it only with `diagnostics: true`.
   */
  diagnosticsFor(session: string): { previous_message_id: string | null };
  /** Reads `response`, sends the record to every sink, returns it. */
  record(prompt: SystemPrompt, response: unknown, options?: RecordOptions): UsageRecord;
}

/** What the recorder keeps of a session's last response. */
interface SessionState {
  responseId: string | null;
  sections: readonly StaticSection[] | null;
}

const DEFAULT_MAX_SESSIONS = 10_000;

export function createUsageRecorder(given?: UsageRecorderOptions): UsageRecorder {
  const fn = 'createUsageRecorder';
  const options = optionsOf(fn, given);
  const sinks = options.sinks ?? [];
  if (!Array.isArray(sinks)) throw new ArgumentError(fn, 'options.sinks', 'an array of functions', sinks);
  sinks.forEach((sink, index) => checkFunction(fn, `options.sinks[${index}]`, sink));
  if (options.bundle !== undefined) checkBundle(fn, 'options.bundle', options.bundle);
  checkOptionalBoolean(fn, 'options.diagnostics', options.diagnostics);
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  if (!Number.isSafeInteger(maxSessions) || maxSessions < 1) throw new ArgumentError(fn, 'options.maxSessions', 'a whole number above 0', maxSessions);
  if (options.onError !== undefined) checkFunction(fn, 'options.onError', options.onError);
  const onError = options.onError ?? (() => {});
  const diagnostics = options.diagnostics ?? false;
  // Insertion order is recency: a session recorded again moves to the end, the first is the oldest.
  const sessions = new Map<string, SessionState>();
  const identities = new WeakMap<Bundle, string>();
  const identityOf = (bundle: Bundle): string => {
    let identity = identities.get(bundle);
    if (identity === undefined) identities.set(bundle, (identity = bundleIdentity(bundle)));
    return identity;
  };

  return {
    diagnosticsFor(session) {
      checkString('diagnosticsFor', 'session', session);
      if (!diagnostics) throw new ArgumentError('diagnosticsFor', 'session', 'asked of a recorder created with diagnostics: true', session);
      return { previous_message_id: sessions.get(session)?.responseId ?? null };
    },

    record(prompt, response, givenOptions) {
      const recordOptions = optionsOf('record', givenOptions);
      const own = recordOptions.bundle;
      if (own !== undefined) checkBundle('record', 'options.bundle', own);
      const bundle = own ?? options.bundle;
      const session = diagnostics && typeof recordOptions.session === 'string' ? recordOptions.session : undefined;
      const previous = session === undefined ? undefined : sessions.get(session);
      // The options passed on as they are, the bundle and the previous response apart: no object copied per record.
      const record = usageRecordOf(prompt, response, recordOptions, bundle ? identityOf(bundle) : null, previous ? previous.responseId : null);
      if (session !== undefined) {
        const sections = bundle ? sectionsOf(bundle, prompt) : null;
        if (record.miss?.reason === 'system_changed' && previous?.sections && sections) record.miss.sections = sectionChanges(previous.sections, sections);
        sessions.delete(session);
        sessions.set(session, { responseId: record.responseId, sections });
        if (sessions.size > maxSessions) sessions.delete(sessions.keys().next().value as string);
      }
      for (const sink of sinks) {
        try {
          sink(record);
        } catch (error) {
          onError(error, record);
        }
      }
      return record;
    },
  };
}

function sectionsOf(bundle: Bundle, prompt: SystemPrompt): readonly StaticSection[] | null {
  const source = promptSourceOf(prompt);
  const hash = staticPrefixHashOf(prompt);
  return source && hash !== undefined ? staticSectionsOf(bundle, source, hash) : null;
}

