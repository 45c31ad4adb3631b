"""A section's render first tries the string path (printed values strings, the containers a
printed path walks through dicts) and falls back to the exact body on any surprise. JSON
contexts are covered by the render vectors; these are the Python values JSON never makes,
where a subscript would not mean what Handlebars' lookup means."""
import os
import shutil
import tempfile
import unittest
from collections import UserDict, defaultdict
from enum import Enum
from typing import Any, Dict

from fixtures import build, write_tree

from prompt_build import load_bundle

SECTIONS = {
    "items": "{{#each items}}[{{name}}]{{/each}}",
    "nested": "<{{git.branch}}>",
    "listed": "{{#each items}}{{this}};{{/each}}",
}


class Color(str, Enum):
    RED = "red"


class StringPathFallsBack(unittest.TestCase):
    renders: Dict[str, Any] = {}

    @classmethod
    def setUpClass(cls) -> None:
        root = os.path.realpath(tempfile.mkdtemp(prefix="pb-py-string-path-"))
        cls.addClassCleanup(shutil.rmtree, root, True)
        files = {f"prompts/sections/{name}.md": f"---\nkind: dynamic\noptional: [items, git]\n---\n{text}" for name, text in SECTIONS.items()}
        files["prompts/profiles/default.md"] = f"---\ncacheWarning: false\nsections: {list(SECTIONS)}\n---\n"
        write_tree(root, files)
        bundle = load_bundle(build(root))
        cls.renders = {section.name: section.render for section in bundle.profiles["default"].dynamic_sections}

    def test_a_missing_key_of_a_defaultdict_item_is_undefined_not_its_default(self) -> None:
        self.assertEqual(self.renders["items"]({"items": [defaultdict(lambda: "X"), {"name": "a"}]}), "[][a]")

    def test_a_missing_key_of_a_nested_defaultdict_is_undefined(self) -> None:
        self.assertEqual(self.renders["nested"]({"git": defaultdict(lambda: "X")}), "<>")

    def test_any_mapping_is_read_like_a_dict(self) -> None:
        self.assertEqual(self.renders["items"]({"items": [UserDict(name="u")]}), "[u]")
        self.assertEqual(self.renders["nested"]({"git": UserDict(branch="main")}), "<main>")

    def test_a_tuple_is_walked_like_a_list(self) -> None:
        self.assertEqual(self.renders["listed"]({"items": ("a", "b")}), "a;b;")

    def test_a_str_subclass_prints_its_text(self) -> None:
        self.assertEqual(self.renders["listed"]({"items": [Color.RED, "b"]}), "red;b;")

    def test_json_values_that_are_no_strings_print_as_javascript_does(self) -> None:
        self.assertEqual(self.renders["listed"]({"items": [1, True, None, 1.5]}), "1;true;;1.5;")


if __name__ == "__main__":
    unittest.main()
