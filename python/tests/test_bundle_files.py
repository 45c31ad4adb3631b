"""A bundle is data from a stranger: the loader reads its files as the JavaScript loader
does (compiler/runtime/read-regular-file.ts) — no symbolic link at any component below the
bundle folder, no FIFO or device, nothing over the size bound — and says which file and why."""
import json
import os
import shutil
import subprocess
import sys
import unittest

from fixtures import REPO, SRC, temp_dir

import prompt_build as pb

DIST = os.path.join(REPO, "dist")

LOAD = "import sys, prompt_build as pb\ntry:\n    pb.load_bundle(sys.argv[1])\n    print('loaded')\nexcept pb.BundleError as error:\n    print('refused:', error)\n"


def first_static(dist: str) -> str:
    with open(os.path.join(dist, "manifest.json"), encoding="utf-8") as handle:
        manifest = json.load(handle)
    return next(s["file"] for p in manifest["profiles"].values() for s in p["sections"] if s["kind"] == "static")


class BundleFiles(unittest.TestCase):
    def copy(self) -> str:
        dist = os.path.join(temp_dir(self), "dist")
        shutil.copytree(DIST, dist)
        return dist

    def load_in_child(self, dist: str) -> str:
        """In a child with a deadline: a loader that opened a FIFO would block, and the test must fail, not hang."""
        run = subprocess.run([sys.executable, "-c", LOAD, dist], capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": SRC})
        self.assertEqual(run.returncode, 0, run.stderr)
        return run.stdout.strip()

    def test_a_file_that_is_a_link_is_refused_even_to_the_same_bytes(self) -> None:
        dist = self.copy()
        rel = first_static(dist)
        target = os.path.join(temp_dir(self), "outside.md")
        shutil.copyfile(os.path.join(dist, rel), target)
        os.remove(os.path.join(dist, rel))
        os.symlink(target, os.path.join(dist, rel))
        with self.assertRaises(pb.BundleError) as raised:
            pb.load_bundle(dist)
        self.assertIn(f"{rel} is a symbolic link", str(raised.exception))

    def test_a_folder_that_is_a_link_is_refused(self) -> None:
        dist = self.copy()
        outside = os.path.join(temp_dir(self), "static")
        shutil.move(os.path.join(dist, "static"), outside)
        os.symlink(outside, os.path.join(dist, "static"))
        with self.assertRaises(pb.BundleError) as raised:
            pb.load_bundle(dist)
        self.assertIn("is inside static/, a symbolic link", str(raised.exception))

    def test_the_bundle_folder_itself_may_be_a_link(self) -> None:
        dist = self.copy()
        link = os.path.join(temp_dir(self), "linked-dist")
        os.symlink(dist, link)
        self.assertIn("default", pb.load_bundle(link).profiles)

    def test_a_fifo_is_refused_without_blocking(self) -> None:
        dist = self.copy()
        rel = first_static(dist)
        os.remove(os.path.join(dist, rel))
        os.mkfifo(os.path.join(dist, rel))
        self.assertEqual(self.load_in_child(dist), f"refused: bundle {dist}: {rel} is not a regular file (a FIFO, device or folder); a bundle's files are read only as regular files")

    def test_a_fifo_manifest_is_refused_without_blocking(self) -> None:
        dist = self.copy()
        os.remove(os.path.join(dist, "manifest.json"))
        os.mkfifo(os.path.join(dist, "manifest.json"))
        self.assertIn("manifest.json is not a regular file", self.load_in_child(dist))


if __name__ == "__main__":
    unittest.main()
