/** A bundle still in memory (watch mode: the build's files before or after they are written) as report contents. */
import type { Manifest, SourceMap } from '../runtime/manifest.js';
import type { BundleContents } from './bundle-contents.js';

export function contentsFromFiles(label: string, manifest: Manifest, files: ReadonlyMap<string, string>): BundleContents {
  const texts = new Map<string, string>();
  const maps = new Map<string, SourceMap>();
  for (const [file, content] of files) {
    if (file.startsWith('maps/')) maps.set(file, JSON.parse(content) as SourceMap);
    else if (/^(static|agents)\/.*\.md$/.test(file) || file.endsWith('.hbs')) texts.set(file, content);
  }
  return { label, manifest, texts, maps };
}
