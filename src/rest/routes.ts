/** A path template of the contract ("/v1/profiles/{profileId}") as a pattern for the paths it stands for. */
export function templatePattern(template: string): RegExp {
  return new RegExp(`^${template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+')}$`);
}

/** Orders templates so the most literal comes first: "/a/{id}/b" is tried before "/a/{id}/{part}". */
export function mostLiteralFirst(a: string, b: string): number {
  const literalLength = (template: string) => template.replace(/\{.*?\}/g, '').length;
  return literalLength(b) - literalLength(a);
}

/**
 * The template a request path falls under (trailing slashes ignored, as openapi-backend does), or
 * undefined: a label for the request that is bounded by the contract, never the raw path.
 */
export function routeMatcher(templates: string[]): (path: string) => string | undefined {
  const exact = new Set(templates.filter((template) => !template.includes('{')));
  const templated = templates
    .filter((template) => template.includes('{'))
    .sort(mostLiteralFirst)
    .map((template) => ({ template, pattern: templatePattern(template) }));
  return (path) => {
    const normalized = path.length > 1 ? path.replace(/\/+$/, '') || '/' : path;
    return exact.has(normalized) ? normalized : templated.find(({ pattern }) => pattern.test(normalized))?.template;
  };
}
