// What it holds: the two checks every edit of a dependency's text goes through. Why: the React
// build rewrites React's and react-dom's modules (react-esm.ts, react-dom-internals.ts) and the lite
// build renames preact's internal properties (mangle.ts, vite.config.ts); each was written against
// one exact text. A caret range would let `npm install` bring a newer text under an edit that no
// longer fits it. So the packages are pinned to exact versions in package.json, the build checks the
// installed copy is that version, and every edit names the text it expects (an anchor): when one no
// longer matches, the build fails naming the file and the anchor. Upgrading them:
// docs/decisions.md "Dependencies the build edits".
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/** The packages whose text the build edits, and the edit that relies on each. */
export const EDITED_PACKAGES: Record<string, string> = {
  react: 'build/react-esm.ts',
  'react-dom': 'build/react-dom-internals.ts',
  preact: "build/preact-edits.ts and build/mangle.ts (the lite build's edits and property mangling of preact's internals)",
};

const ROOT = new URL('..', import.meta.url);

/** One text an edit expects in a dependency's file: its name (for the message) and the text or pattern. */
export interface Anchor {
  name: string;
  /** Text the file must contain, a pattern it must match, or a test of the whole file. */
  text: string | RegExp | ((code: string) => boolean);
}

const holds = (code: string, { text }: Anchor): boolean =>
  typeof text === 'string' ? code.includes(text) : text instanceof RegExp ? text.test(code) : text(code);

/**
 * The message for the anchors of `anchors` that `code` (the content of `file`) no longer holds, or
 * null when all match. One message names the file and every anchor that failed.
 */
export function missingAnchors(file: string, code: string, anchors: Anchor[]): string | null {
  const missing = anchors.filter((anchor) => !holds(code, anchor));
  if (missing.length === 0) return null;
  return (
    `${file}: the build edits this file and no longer finds ${missing.map((a) => `the anchor "${a.name}"`).join(', ')} ` +
    `in it; the dependency changed (docs/decisions.md "Dependencies the build edits" says how to upgrade)`
  );
}

/** `missingAnchors` on a file read from disk. */
export function checkAnchors(file: string, anchors: Anchor[]): string | null {
  return missingAnchors(file, readFileSync(file, 'utf8'), anchors);
}

/**
 * Why each edited package is not pinned, or an empty list: its range in package.json must be an
 * exact version, and the installed copy (node_modules) that version. `root` is the project folder.
 */
export function unpinned(root: URL = ROOT): string[] {
  const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as Record<string, Record<string, string>>;
  const problems: string[] = [];
  for (const [name, edit] of Object.entries(EDITED_PACKAGES)) {
    const range = pkg.dependencies?.[name] ?? pkg.devDependencies?.[name];
    if (!range || !/^\d+\.\d+\.\d+$/.test(range)) {
      problems.push(
        `package.json: "${name}" is "${range ?? 'missing'}"; ${edit} edits its text, so it must be one exact version`,
      );
      continue;
    }
    const installedFile = fileURLToPath(new URL(`node_modules/${name}/package.json`, root));
    const installed = (JSON.parse(readFileSync(installedFile, 'utf8')) as { version: string }).version;
    if (installed !== range)
      problems.push(`${installedFile}: ${name} ${installed} is installed, package.json pins ${range} (run \`npm ci\`)`);
  }
  return problems;
}

/** Fails the build (both builds use it) when an edited package is not pinned or not installed at its pin. */
export function pinnedDependencies(root: URL = ROOT): Plugin {
  return {
    name: 'pagepulse-pinned-dependencies',
    buildStart() {
      const problems = unpinned(root);
      if (problems.length) this.error(problems.join('\n'));
    },
  };
}
