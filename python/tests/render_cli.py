"""Renders prompts with the Python runtime for the parity test (test/conformance/python-parity.test.ts).

Reads ``{"bundle": dir, "cases": [{"profile"?, "mode"?, "agent"?, "environment"?, "context"}]}``
on stdin, writes each case's prompt and provider blocks as JSON on stdout. A case
``{"contextText": name, "context": values}`` renders one context wording text, and
``{"userContext": entries}`` the user-context message.
"""
import json
import sys
from typing import Any, Dict

import prompt_build as pb


def render(bundle: pb.Bundle, case: Dict[str, Any]) -> Dict[str, Any]:
    if "contextText" in case:
        return {"text": pb.render_context_text(bundle, case["contextText"], case["context"])}
    if "userContext" in case:
        return {"messages": pb.prepend_user_context([], case["userContext"], bundle)}
    if "agent" in case:
        prompt = pb.get_agent_system_prompt(bundle, case["agent"], case.get("environment"))
    else:
        kwargs = {key: case[key] for key in ("profile", "mode") if key in case}
        prompt = pb.get_system_prompt(bundle, context=case["context"], cache=pb.create_section_cache(), **kwargs)
    return {
        "prompt": list(prompt),
        "anthropic": pb.to_anthropic_system(prompt),
        "bedrock": pb.to_bedrock_system(prompt, ttl="1h"),
        "openai": pb.to_openai_request(prompt),
        "gemini": pb.to_gemini_system_instruction(prompt),
    }


def main() -> None:
    request = json.load(sys.stdin)
    bundle = pb.load_bundle(request["bundle"])
    json.dump([render(bundle, case) for case in request["cases"]], sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
