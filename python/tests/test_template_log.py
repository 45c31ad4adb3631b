"""``{{log}}`` in a section rendered by the Python runtime: logged through the ``logging`` module
(logger ``prompt_build.template``) at the level Handlebars' console method has, never printed;
the template's output is what the JavaScript runtime renders (the render vectors hold that)."""
import contextlib
import io
import logging
import unittest

from fixtures import build, temp_dir, write_tree

from prompt_build import load_bundle

SECTION = "\n".join(
    [
        "---",
        "kind: dynamic",
        "inputs: [a]",
        "---",
        '[{{log "plain" a}}{{log "warned" level="warn"}}{{log "failed" level="error"}}{{log "quiet" level="debug"}}'
        '{{log "three" level=3}}{{log "five" level="5"}}{{log "below" level=-1}}{{a}}]',
    ]
)


class TemplateLog(unittest.TestCase):
    def test_log_goes_to_logging_at_the_matching_level_and_prints_nothing(self) -> None:
        root = temp_dir(self)
        write_tree(root, {"prompts/sections/s.md": SECTION, "prompts/profiles/p.md": "---\ncacheWarning: false\nsections: [s]\n---\n"})
        section = load_bundle(build(root)).profiles["p"].dynamic_sections[0]
        printed = io.StringIO()
        with self.assertLogs("prompt_build.template", level="DEBUG") as logs, contextlib.redirect_stdout(printed):
            text = section.render({"a": 1})
        self.assertEqual(text, "[1]")
        self.assertEqual(printed.getvalue(), "")
        self.assertEqual(
            [(record.levelno, record.getMessage()) for record in logs.records],
            [
                (logging.INFO, "plain 1"),
                (logging.WARNING, "warned"),
                (logging.ERROR, "failed"),
                (logging.DEBUG, "quiet"),
                (logging.ERROR, "three"),
                # Past Handlebars' level names: console.log.
                (logging.INFO, "five"),
            ],
        )


if __name__ == "__main__":
    unittest.main()
