"""Loads a bundle directory (``dist/``) for the Python runtime.

Every artifact it reads — static texts, agent prompts, the dynamic sections'
Python modules — is checked against the manifest's sha256 first, so a
half-copied, truncated or edited bundle fails here with the file's name
instead of producing a wrong prompt. A module is compiled from the very bytes
that were verified (never re-read from disk, and no ``__pycache__`` is written
into the bundle), and must define ``create(rt)``, which returns the section's
``render(ctx)`` (the same contract as the JavaScript thunks).
"""
import hashlib
import importlib.util
import json
import os
import stat as stat_module
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple, Union

from ._js import RUNTIME
from .errors import ArgumentError, BundleError
from .manifest import list_artifacts, validate_manifest
from .system_prompt import has_text, trim_trailing_newlines

RenderSection = Callable[[Dict[str, Any]], Optional[str]]


class DynamicSection(NamedTuple):
    name: str
    cache: str  # "cached" | "uncached"
    reason: Optional[str]
    render: RenderSection


class BundleProfile(NamedTuple):
    name: str
    #: Static section texts in profile order, trailing newlines trimmed (empty ones left out).
    static_texts: Tuple[str, ...]
    dynamic_sections: Tuple[DynamicSection, ...]
    static_prefix_hash: str


class BundleAgent(NamedTuple):
    definition: Dict[str, Any]
    #: The agent's system prompt, trailing newlines trimmed.
    prompt: str


class Bundle(NamedTuple):
    manifest: Dict[str, Any]
    profiles: Dict[str, BundleProfile]
    agents: Dict[str, BundleAgent]


def load_bundle(path: Union[str, "os.PathLike[str]"]) -> Bundle:
    """Loads and verifies the bundle directory at ``path`` (relative paths from the working directory)."""
    if not isinstance(path, (str, os.PathLike)):
        raise ArgumentError("load_bundle", "path", "a directory path", path)
    root = os.path.abspath(os.fspath(path))
    origin = f"bundle {root}"
    manifest = validate_manifest(_parse_json(_read(root, "manifest.json", origin), origin), origin)
    text_files, module_files = list_artifacts(manifest, origin)
    texts = {file: _read_verified(root, file, digest, origin).decode("utf-8") for file, digest in text_files}
    renders = {file: _load_module(root, file, digest, origin) for file, digest in module_files}
    return _link(manifest, texts, renders, origin)


def _link(manifest: Dict[str, Any], texts: Dict[str, str], renders: Dict[str, RenderSection], origin: str) -> Bundle:
    profiles: Dict[str, BundleProfile] = {}
    for name, entry in manifest["profiles"].items():
        static_texts: List[str] = []
        dynamic: List[DynamicSection] = []
        for section in entry["sections"]:
            if section["kind"] == "static":
                # An empty static text would only add a stray blank line to the prefix.
                text = trim_trailing_newlines(texts[section["file"]])
                if has_text(text):
                    static_texts.append(text)
                continue
            reason = section.get("reason")
            if section["cache"] == "uncached" and not has_text(reason):
                raise BundleError(f"{origin}: uncached section {section['name']} in profile {name} has no reason")
            dynamic.append(DynamicSection(section["name"], section["cache"], reason if section["cache"] == "uncached" else None, renders[section["python"]]))
        profiles[name] = BundleProfile(name, tuple(static_texts), tuple(dynamic), entry["staticPrefixHash"])
    agents = {name: BundleAgent(definition, trim_trailing_newlines(texts[definition["file"]])) for name, definition in manifest["agents"].items()}
    return Bundle(manifest, profiles, agents)


def _load_module(root: str, file: str, digest: str, origin: str) -> RenderSection:
    source = _read_verified(root, file, digest, origin)
    location = os.path.join(root, *file.split("/"))
    # A name of its own per file: two bundles (or two versions) never share a module object.
    spec = importlib.util.spec_from_file_location(f"prompt_build_section_{digest[:16]}", location)
    if spec is None or spec.loader is None:
        raise BundleError(f"{origin}: module {file} cannot be imported")
    module = importlib.util.module_from_spec(spec)
    try:
        code = spec.loader.source_to_code(source, location)  # type: ignore[attr-defined]
        exec(code, module.__dict__)
    except Exception as cause:
        raise BundleError(f"{origin}: module {file} cannot be imported: {type(cause).__name__}: {cause}") from cause
    create = getattr(module, "create", None)
    if not callable(create):
        raise BundleError(f"{origin}: module {file} defines no create(rt) factory")
    try:
        render = create(RUNTIME)
    except Exception as cause:
        raise BundleError(f"{origin}: module {file} failed to initialise: {type(cause).__name__}: {cause}") from cause
    if not callable(render):
        raise BundleError(f"{origin}: module {file} did not return a render function")
    return render  # type: ignore[no-any-return]


def _read_verified(root: str, file: str, digest: str, origin: str) -> bytes:
    data = _read(root, file, origin)
    actual = hashlib.sha256(data).hexdigest()
    if actual != digest:
        raise BundleError(
            f"{origin}: artifact {file} does not match the manifest (sha256 {actual[:12]}…, expected {digest[:12]}…; "
            f"{len(data)} bytes). The bundle is corrupted, half-copied or edited by hand: rebuild it."
        )
    return data


#: What the loader reads at most of one file, as the JavaScript loader (read-regular-file.ts).
MAX_BUNDLE_FILE_BYTES = 256 * 1024 * 1024

_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)


def _read(root: str, file: str, origin: str) -> bytes:
    """A bundle's file, read as the JavaScript loader reads it: no symbolic link at any path
    component below ``root`` (``root`` itself may be one), a regular file only (a FIFO would
    block, a device act), checked before it is opened and again once open (the same device and
    inode), and no more than the checked size."""
    parts = file.split("/")
    for depth in range(1, len(parts)):
        folder = os.path.join(root, *parts[:depth])
        try:
            if stat_module.S_ISLNK(os.lstat(folder).st_mode):
                raise BundleError(f"{origin}: {file} is inside {'/'.join(parts[:depth])}/, a symbolic link; a bundle's files are read only inside its own folders")
        except FileNotFoundError as cause:
            raise BundleError(f"{origin}: {file} is missing") from cause
    location = os.path.join(root, *parts)
    try:
        before = os.lstat(location)
    except FileNotFoundError as cause:
        raise BundleError(f"{origin}: {file} is missing") from cause
    except OSError as cause:
        raise BundleError(f"{origin}: {file} cannot be read: {cause.strerror}") from cause
    if stat_module.S_ISLNK(before.st_mode):
        raise BundleError(f"{origin}: {file} is a symbolic link; a bundle's files are read only as regular files")
    if not stat_module.S_ISREG(before.st_mode):
        raise BundleError(f"{origin}: {file} is not a regular file (a FIFO, device or folder); a bundle's files are read only as regular files")
    if before.st_size > MAX_BUNDLE_FILE_BYTES:
        raise BundleError(f"{origin}: {file} is {before.st_size} bytes, over the {MAX_BUNDLE_FILE_BYTES}-byte bound of a bundle file")
    try:
        descriptor = os.open(location, _OPEN_FLAGS)
    except OSError as cause:
        raise BundleError(f"{origin}: {file} cannot be read: {cause.strerror}") from cause
    with os.fdopen(descriptor, "rb") as handle:
        after = os.fstat(descriptor)
        if not stat_module.S_ISREG(after.st_mode) or (after.st_dev, after.st_ino) != (before.st_dev, before.st_ino):
            raise BundleError(f"{origin}: {file} was replaced while it was being read; read the bundle again")
        return handle.read(before.st_size)


def _parse_json(data: bytes, origin: str) -> Any:
    try:
        return json.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as cause:
        raise BundleError(f"{origin}: manifest.json is not valid JSON (truncated?): {cause}") from cause
