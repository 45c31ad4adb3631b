/**
 * Handlebars templates of dynamic sections: what they read (for the build's
 * input checks) and the thunk module each one compiles to.
 */
export { analyzeTemplate, templateVariables, type TemplateAnalysis, type TemplateVariable } from './analyze.js';
export { fallbackReason, generateThunkModule, type ThunkOptions } from './codegen.js';
export { generatePythonModule } from './codegen-python.js';
export type { TemplateError } from './parse.js';
export { RUNTIME_HELPERS, validateTemplate, type TemplateProblem, type TemplateRule } from './validate.js';
