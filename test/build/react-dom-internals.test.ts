// build/react-dom-internals.ts and build/react-esm.ts: the React build's react-dom stand-in keeps
// flushSync working with the patched React in jsdom, and a third importer of react-dom fails the build.
import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reactDomInternals } from '../../build/react-dom-internals';
import { reactEsm, reactImportProblem } from '../../build/react-esm';
import { bundle, expectEntryRenders, fixture } from './bundle';

describe('the React build with build/react-dom-internals.ts and build/react-esm.ts', () => {
  it('src/ui/react-root.tsx renders synchronously through the stand-in flushSync, updates and unmounts', async () => {
    const code = await bundle(fixture('react-entry.ts'), [reactDomInternals(), reactEsm()]);
    // the patched code, not React's CommonJS: no `exports.` assignments of react.production.js left
    expect(code).not.toMatch(/\bexports\.createElement\b/);
    await expectEntryRenders(code);
  });

  it('a module other than react-dom/client and src/ui/react-root.tsx importing react-dom: the build fails naming it', async () => {
    await expect(bundle(fixture('imports-react-dom.ts'), [reactDomInternals(), reactEsm()])).rejects.toThrow(
      /imports-react-dom\.ts imports react-dom: only react-dom\/client's production file and src\/ui\/react-root\.tsx may/,
    );
  });

  it("a module importing React's Fragment (whose ref methods the build edits out): the build fails naming it", async () => {
    await expect(bundle(fixture('imports-react-fragment.tsx'), [reactDomInternals(), reactEsm()])).rejects.toThrow(
      /imports-react-fragment\.tsx: `import \{ Fragment, createElement \} from 'react'` imports Fragment from react/,
    );
  });

  it.each([
    ["import * as React from 'react';", '* as React'],
    ["import React from 'react';", 'React'],
    ["import { jsx } from 'react/jsx-runtime';", 'jsx'],
    ["import { unstable_ViewTransition as ViewTransition } from 'react';", 'unstable_ViewTransition'],
  ])('reactImportProblem: %s is refused', (statement, name) => {
    expect(reactImportProblem('view.tsx', statement)).toContain(`imports ${name} from`);
  });

  it('reactImportProblem: the named imports of USED and type imports pass', () => {
    expect(
      reactImportProblem(
        'view.tsx',
        "import type { ReactNode } from 'react';\nimport { createElement, useRef as ref, type ReactNode as N } from 'react';",
      ),
    ).toBeNull();
  });

  // the view transitions' messages, which the build's one text edit of react-dom/client takes out
  const MESSAGE = 'View transition was skipped';
  const CLIENT = 'react-dom/cjs/react-dom-client.production.js';

  it('makes its edit of react-dom/client through a symlinked node_modules too (a git worktree sharing one)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pagepulse-build-'));
    try {
      symlinkSync(resolve('node_modules'), join(dir, 'node_modules'));
      const code = await bundle(fixture('react-entry.ts'), [
        reactDomInternals({ reactDomClient: join(dir, 'node_modules', CLIENT) }),
        reactEsm(),
      ]);
      expect(code).not.toContain(MESSAGE);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails, naming the file, when react-dom/client comes into the build from a file its edit did not reach', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pagepulse-build-'));
    try {
      // a copy with every anchor in place, but not the file the bundler loads
      const copy = join(dir, 'react-dom-client.production.js');
      copyFileSync(resolve('node_modules', CLIENT), copy);
      await expect(bundle(fixture('react-entry.ts'), [reactDomInternals({ reactDomClient: copy }), reactEsm()])).rejects.toThrow(
        /react-dom-client\.production\.js: react-dom\/client came into the build from another file than .* was not made/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
