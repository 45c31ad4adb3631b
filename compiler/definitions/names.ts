/**
 * Section and agent names become artifact file names
 * (`static/<name>.<hash8>.md`, `maps/agents/<name>.<hash8>.json`…), so a name
 * must be one on every disk a bundle is checked out to: short, none of the
 * characters some system reserves, not a Windows device name, and not equal
 * to another name but for case (macOS and Windows disks ignore case).
 */

/** Longest name, in UTF-8 bytes: with a hash, an extension and a folder it stays far below the 255-byte file-name limit. */
export const MAX_NAME_BYTES = 100;

/** Reserved in a file name on Windows (and `/` everywhere); controls are no name's business either. */
const RESERVED_CHARACTER = /[/\\:*?"<>|\u0000-\u001f\u007f]/;

/** Windows refuses these as a file name's first part, whatever follows (`nul.3fa9c2e1.md`). */
const DEVICE_NAME = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;

/**
 * The one name no manifest can carry: as a key of a JavaScript object,
 * `record['__proto__'] = x` sets the object's prototype instead, and the JSON
 * writers leave the key out — the profile or agent would vanish from the bundle.
 */
export const PROTO_KEY = '__proto__';

const PROTO_PROBLEM = "is '__proto__', which a bundle's manifest cannot hold as a name (JavaScript reads the key as the object's prototype)";

/** Why `name` cannot name a profile, a section or an agent in a bundle, as the end of "name 'x' …", or null. */
export function manifestKeyProblem(name: string): string | null {
  return name === PROTO_KEY ? PROTO_PROBLEM : null;
}

/** Why `name` cannot be a file name on some disk (or a manifest key), as the end of "name 'x' …", or null. */
export function fileNameProblem(name: string): string | null {
  if (name.trim() === '') return 'is empty';
  if (name === PROTO_KEY) return PROTO_PROBLEM;
  const bytes = Buffer.byteLength(name, 'utf8');
  if (bytes > MAX_NAME_BYTES) return `is ${bytes} bytes long; names are at most ${MAX_NAME_BYTES} (they name artifact files)`;
  const reserved = RESERVED_CHARACTER.exec(name);
  if (reserved) return `holds ${showCharacter(reserved[0])}, which a file name cannot hold`;
  if (DEVICE_NAME.test(name)) return 'is a device name on Windows, which no file can be named';
  return null;
}

/** The key under which two names collide on a disk that ignores case. */
export function caseFolded(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/** A name for a message: cut when long, so a 10,000-character name does not fill the terminal; controls shown as `\xNN`. */
export function shownName(name: string): string {
  const cut = name.length > 60 ? `${name.slice(0, 57)}…` : name;
  return cut.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

function showCharacter(char: string): string {
  const code = char.charCodeAt(0);
  return code < 0x20 || code === 0x7f ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}` : `'${char}'`;
}
