"""prompt_build: the Python runtime for prompt-build bundles (standard library only).

Loads a ``dist/`` bundle built with the ``python`` target, assembles system
prompts byte-identical to ``prompt-build/runtime``'s, and turns them into
provider request shapes. Contexts are JSON values (dict, list, str, int,
float, bool, None); JavaScript functions as context values are JS-only.
"""
from .assemble import get_agent_system_prompt, get_system_prompt, get_system_prompt_async
from .bundle import Bundle, BundleAgent, BundleProfile, DynamicSection, load_bundle
from .errors import ArgumentError, BundleError, MissingVariableError, RenderError
from .context_wording import CONTEXT_PROFILE, CONTEXT_TEXTS, has_context_wording, render_context_text
from .injection import append_system_context, prepend_user_context
from .manifest import SCHEMA_VERSION
from .priority_chain import CUSTOM_AGENT_INSTRUCTIONS_HEADING, build_effective_system_prompt
from .providers import (
    PROMPT_CACHE_KEY_MAX_LENGTH,
    to_anthropic_system,
    to_bedrock_system,
    to_gemini_system_instruction,
    to_openai_request,
)
from .requests import MAX_BREAKPOINTS, to_anthropic_request, to_bedrock_request
from .section_cache import (
    DANGEROUS_uncached_system_prompt_section,
    SectionCache,
    SystemPromptSection,
    create_section_cache,
    resolve_system_prompt_sections,
    resolve_system_prompt_sections_async,
    system_prompt_section,
)
from .system_prompt import (
    SYSTEM_PROMPT_DYNAMIC_BOUNDARY,
    SystemPrompt,
    as_system_prompt,
    prompt_source_of,
    render_system_prompt,
    static_prefix_hash_of,
)
from .usage import USAGE_RECORD_VERSION, record_usage
from .usage_bundle import bundle_identity
from .usage_opentelemetry import open_telemetry_usage_sink, usage_attributes, usage_metric_attributes
from .usage_recorder import UsageRecorder, create_usage_recorder
from .usage_sections import describe_miss
from .usage_sinks import jsonl_usage_sink, usage_line

__all__ = [
    "ArgumentError",
    "Bundle",
    "BundleAgent",
    "BundleError",
    "BundleProfile",
    "CONTEXT_PROFILE",
    "CONTEXT_TEXTS",
    "CUSTOM_AGENT_INSTRUCTIONS_HEADING",
    "DANGEROUS_uncached_system_prompt_section",
    "DynamicSection",
    "MAX_BREAKPOINTS",
    "MissingVariableError",
    "PROMPT_CACHE_KEY_MAX_LENGTH",
    "RenderError",
    "SCHEMA_VERSION",
    "SYSTEM_PROMPT_DYNAMIC_BOUNDARY",
    "SectionCache",
    "SystemPrompt",
    "SystemPromptSection",
    "USAGE_RECORD_VERSION",
    "UsageRecorder",
    "append_system_context",
    "as_system_prompt",
    "build_effective_system_prompt",
    "bundle_identity",
    "create_section_cache",
    "create_usage_recorder",
    "describe_miss",
    "get_agent_system_prompt",
    "get_system_prompt",
    "get_system_prompt_async",
    "has_context_wording",
    "jsonl_usage_sink",
    "load_bundle",
    "open_telemetry_usage_sink",
    "prepend_user_context",
    "prompt_source_of",
    "record_usage",
    "render_context_text",
    "render_system_prompt",
    "resolve_system_prompt_sections",
    "resolve_system_prompt_sections_async",
    "static_prefix_hash_of",
    "system_prompt_section",
    "to_anthropic_request",
    "to_anthropic_system",
    "to_bedrock_request",
    "to_bedrock_system",
    "to_gemini_system_instruction",
    "to_openai_request",
    "usage_attributes",
    "usage_line",
    "usage_metric_attributes",
]
__version__ = "0.1.0"
