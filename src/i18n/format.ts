// A module of its own, importing nothing: the lazily loaded consent view needs it, and importing
// it from index.ts would make the bundler wrap both message tables in lazy-init functions.

/** Fill `%s` (and `%m`) placeholders of a message. */
export function format(template: string, s: string, m = ''): string {
  return template.replace('%s', () => s).replace('%m', () => m);
}
