/**
 * What `watch --serve` shows: the report of the last good build, rendered
 * when asked for and kept until the next build, with the diagnostics of a
 * failed build above it.
 */
import type { BuildResult } from '../../pipeline/compiler.js';
import { formatHuman } from '../../diagnostics/format.js';
import { contentsFromFiles } from '../../report/from-files.js';
import { reportHtml } from '../../report/html/page.js';
import { costFactsFor } from '../../report/model-facts.js';
import { reportData } from '../../report/report-data.js';
import type { BundleContents } from '../../report/bundle-contents.js';

export class LiveReport {
  #good: BundleContents | null = null;
  #failure: string[] | null = null;
  #html: string | null = null;

  constructor(
    private readonly label: string,
    private readonly models: readonly string[],
  ) {}

  /** A build finished: a good one replaces the bundle shown, a failed one adds its diagnostics. */
  built(result: BuildResult): void {
    if (result.bundle) {
      this.#good = contentsFromFiles(this.label, result.bundle.manifest, result.bundle.files);
      this.#failure = null;
    } else {
      this.#failure = result.diagnostics.map((d) => formatHuman(d));
    }
    this.#html = null;
  }

  html(): string {
    this.#html ??= reportHtml(this.#good && reportData(this.#good, this.models.map((model) => costFactsFor(model))), { failure: this.#failure });
    return this.#html;
  }
}
