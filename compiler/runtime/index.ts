/**
 * `prompt-build/runtime`: what a service ships to turn a built bundle into
 * system prompts. It imports nothing from the compiler; its one third-party
 * dependency is the Handlebars runtime the thunks use.
 */
export { loadBundle } from './load-bundle.js';
export { loadBundleModule } from './load-bundle-module.js';
export {
  BundleError,
  type Bundle,
  type BundleAgent,
  type BundleProfile,
  type DynamicSection,
  type RenderSection,
} from './bundle.js';
export {
  createSectionCache,
  DANGEROUS_uncachedSystemPromptSection,
  resolveSystemPromptSections,
  systemPromptSection,
  type ComputeSection,
  type SectionCache,
  type SectionValue,
  type SystemPromptSection,
} from './section-cache.js';
export {
  asSystemPrompt,
  isSystemPrompt,
  promptSourceOf,
  renderSystemPrompt,
  staticPrefixHashOf,
  type PromptSource,
  SYSTEM_PROMPT_DYNAMIC_BOUNDARY,
  type SystemPrompt,
  type SystemPromptOrigin,
} from './system-prompt.js';
export {
  getAgentSystemPrompt,
  getSystemPrompt,
  type GetAgentSystemPromptOptions,
  type GetSystemPromptOptions,
  type PromptMode,
} from './assemble.js';
export {
  buildEffectiveSystemPrompt,
  CUSTOM_AGENT_INSTRUCTIONS_HEADING,
  type EffectiveSystemPromptInput,
  type PromptInput,
} from './priority-chain.js';
export {
  appendSystemContext,
  prependUserContext,
  type ContextEntries,
  type UserContextMessage,
} from './injection.js';
export { CONTEXT_PROFILE, CONTEXT_TEXTS, hasContextWording, renderContextText, type ContextText } from './context-wording.js';
export {
  toAnthropicSystem,
  type AnthropicCacheControl,
  type AnthropicGlobalCacheControl,
  type AnthropicGlobalTextBlock,
  type AnthropicSystemOptions,
  type AnthropicTextBlock,
} from './anthropic.js';
export { toBedrockSystem, type BedrockCachePoint, type BedrockSystemBlock, type BedrockSystemOptions } from './bedrock.js';
export { toAnthropicRequest, type AnthropicRequestInput, type AnthropicRequestOptions, type AnthropicRequestPlan } from './anthropic-request.js';
export { toBedrockRequest, type BedrockRequestInput, type BedrockRequestOptions, type BedrockRequestPlan } from './bedrock-request.js';
export { MAX_BREAKPOINTS, type BreakpointPlace, type DroppedBreakpoint, type PlannedBreakpoint } from './breakpoint-budget.js';
export {
  PROMPT_CACHE_KEY_MAX_LENGTH,
  toOpenAIRequest,
  type OpenAICacheMode,
  type OpenAICacheRetention,
  type OpenAIDeveloperMessage,
  type OpenAIInputRequest,
  type OpenAIInputText,
  type OpenAIInstructionsRequest,
  type OpenAIRequestOptions,
} from './openai.js';
export { toGeminiSystemInstruction, type GeminiSystemInstruction } from './gemini.js';
export type { CacheTtl, TtlOptions } from './prompt-sides.js';
export { toSystemBlocks, type CacheControl, type SystemBlocksOptions, type SystemTextBlock } from './blocks.js';
export {
  recordUsage,
  USAGE_RECORD_VERSION,
  type CacheMiss,
  type RecordUsageOptions,
  type ChangedSection,
  type UsageApi,
  type UsageProvider,
  type UsageRecord,
  type UsageTokens,
} from './usage.js';
export { createUsageRecorder, type RecordOptions, type UsageRecorder, type UsageRecorderOptions, type UsageSink } from './usage-recorder.js';
export { bundleIdentity } from './usage-bundle.js';
export { describeMiss } from './usage-sections.js';
export { jsonlUsageSink, usageLine, type TextWriter } from './usage-sinks.js';
export {
  createOpenTelemetryUsageSink,
  openTelemetryUsageSink,
  usageAttributes,
  usageMetricAttributes,
  type OpenTelemetryApi,
  type OpenTelemetryUsageOptions,
  type UsageAttributes,
} from './usage-opentelemetry.js';
export { MissingVariableError, RenderError } from './render-error.js';
export { ArgumentError } from './arguments.js';
export { SCHEMA_VERSION, type BundleModule, type Manifest } from './manifest.js';
