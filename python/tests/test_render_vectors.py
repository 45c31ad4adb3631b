"""Every render vector (test/conformance/render.json) renders in Python exactly as in JavaScript."""
import logging
import unittest
from typing import Any, Dict

from fixtures import build, render_tree, section_name, temp_dir, vectors

from prompt_build import RenderError, load_bundle


def outcome(render: Any, context: Dict[str, Any]) -> Dict[str, Any]:
    try:
        text = render(context)
    except RenderError as error:
        found: Dict[str, Any] = {"error": type(error).__name__}
        if error.variable is not None:
            found["variable"] = error.variable
        return found
    return {"output": "" if text is None else text}


class RenderVectors(unittest.TestCase):
    def test_every_case_renders_as_in_javascript(self) -> None:
        # Templates that call {{log}} log through the logging module; what they render is what counts here.
        logger = logging.getLogger("prompt_build.template")
        quiet = logging.NullHandler()
        logger.addHandler(quiet)
        logger.propagate = False
        self.addCleanup(setattr, logger, "propagate", True)
        self.addCleanup(logger.removeHandler, quiet)
        cases = vectors("render.json")["cases"]
        root = temp_dir(self)
        from fixtures import write_tree

        write_tree(root, render_tree(cases))
        bundle = load_bundle(build(root))
        sections = bundle.profiles["render"].dynamic_sections
        self.assertEqual([s.name for s in sections], [section_name(i) for i in range(len(cases))])
        failures = []
        for index, (case, section) in enumerate(zip(cases, sections)):
            for context, expected in zip(case["contexts"], case["expect"]):
                actual = outcome(section.render, context)
                if actual != expected:
                    failures.append(f"{section_name(index)} {case['name']}: {case['template']!r} with {context!r}: {actual!r} != {expected!r}")
        self.assertEqual(failures[:20], [], f"{len(failures)} of the render vectors differ")
        self.assertGreater(sum(len(case["contexts"]) for case in cases), 3600)


if __name__ == "__main__":
    unittest.main()
