// Eleventy as the peer of a cold build (issue 29): every Markdown file of the
// tree read (front matter, body) and rendered to HTML — Markdown only, no
// template language, since the tree's dynamic sections hold Handlebars.
export default function (config) {
  config.setTemplateFormats(['md']);
  // The generated trees live under bench/.trees, which the repository's .gitignore names.
  config.setUseGitIgnore(false);
  config.ignores.add('**/node_modules/**');
  config.ignores.add('**/dist/**');
  return { markdownTemplateEngine: false, htmlTemplateEngine: false, dataTemplateEngine: false };
}
