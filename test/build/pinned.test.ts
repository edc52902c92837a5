// build/pinned.ts: the packages whose text the build edits are pinned exactly, and an edit whose
// anchor no longer matches fails the build naming the file and the anchor. Each case points one
// plugin at a copy of the real dependency file with one anchor changed, and builds a small entry
// (react-dom-internals.test.ts builds the same entry from the unchanged files).
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { EDITED_PACKAGES, unpinned } from '../../build/pinned';
import { reactDomInternals } from '../../build/react-dom-internals';
import { reactEsm } from '../../build/react-esm';
import { bundle, fixture } from './bundle';

const dir = mkdtempSync(join(tmpdir(), 'pagepulse-anchors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of a file of node_modules with `from` replaced by `to` (which must occur in it). */
function changedCopy(path: string, from: string, to: string): string {
  const text = readFileSync(`node_modules/${path}`, 'utf8');
  expect(text).toContain(from);
  const file = join(dir, path.replace(/\//g, '_'));
  writeFileSync(file, text.replace(from, to));
  return file;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('dependencies the build edits', () => {
  it("react-dom's internals object changed: the build fails naming react-dom.production.js and the anchor", async () => {
    const file = changedCopy('react-dom/cjs/react-dom.production.js', 'findDOMNode: null', 'findDOMNode: null, q: 0');
    await expect(bundle(fixture('react-entry.ts'), [reactDomInternals({ reactDom: file }), reactEsm()])).rejects.toThrow(
      new RegExp(`${escape(file)}: the build edits this file and no longer finds the anchor "the internals object"`),
    );
  });

  it("react-dom's flushSync changed: the build fails naming the anchor", async () => {
    const file = changedCopy('react-dom/cjs/react-dom.production.js', '(Internals.p = 2), fn)', '(Internals.p = 8), fn)');
    await expect(bundle(fixture('react-entry.ts'), [reactDomInternals({ reactDom: file }), reactEsm()])).rejects.toThrow(
      /react-dom\.production\.js: the build edits this file and no longer finds the anchor "flushSync"/,
    );
  });

  it('react-dom/client reading one more name from React: the build fails naming react-dom-client.production.js', async () => {
    const file = changedCopy('react-dom/cjs/react-dom-client.production.js', 'React.version', 'React.version + React.useId');
    await expect(bundle(fixture('react-entry.ts'), [reactDomInternals({ reactDomClient: file }), reactEsm()])).rejects.toThrow(
      /react-dom-client\.production\.js: the build edits this file and no longer finds the anchor "React read only for __CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE and version"/,
    );
  });

  it("react-dom/client's view-transition messages changed: the build fails naming the anchor", async () => {
    const file = changedCopy(
      'react-dom/cjs/react-dom-client.production.js',
      '"Skipping view transition because viewport size changed."',
      '"Skipping view transition because the viewport size changed."',
    );
    await expect(bundle(fixture('react-entry.ts'), [reactDomInternals({ reactDomClient: file }), reactEsm()])).rejects.toThrow(
      /react-dom-client\.production\.js: the build edits this file and no longer finds the anchor "the view transitions' four error messages"/,
    );
  });

  // the other text edits of react-dom/client (REACT_DOM_CLIENT_EDITS): one changed text each
  it.each([
    [
      'the findDOMNode of the internals object',
      'findCurrentHostFiberImpl(componentOrElement)',
      'findCurrentHostFiberImpl(componentOrElement, 0)',
    ],
    [
      "the hydration root's unstable_scheduleHydration",
      'queuedExplicitHydrationTargets.splice(i, 0, target);',
      'queuedExplicitHydrationTargets.splice(i, 0, target, 0);',
    ],
    [
      "the dispatcher's requestFormReset and resource hints",
      '  M: preinitModuleScript\n};',
      '  M: preinitModuleScript,\n  N: noop\n};',
    ],
    [
      'FragmentInstance.prototype.focus',
      'FragmentInstance.prototype.focus = function',
      'FragmentInstance.prototype.focus = async function',
    ],
  ])('react-dom/client changed at "%s": the build fails naming the anchor', async (name, from, to) => {
    const file = changedCopy('react-dom/cjs/react-dom-client.production.js', from, to);
    await expect(bundle(fixture('react-entry.ts'), [reactDomInternals({ reactDomClient: file }), reactEsm()])).rejects.toThrow(
      new RegExp(
        `react-dom-client\\.production\\.js: the build edits this file and no longer finds the anchor "${escape(name)}"`,
      ),
    );
  });

  it("React's module with an export the rewrite cannot turn into ESM: the build fails naming react.production.js", async () => {
    const file = changedCopy('react/cjs/react.production.js', 'exports.useRef = function', 'module.exports.useRef = function');
    await expect(bundle(fixture('react-entry.ts'), [reactDomInternals(), reactEsm(file)])).rejects.toThrow(
      /react\.production\.js: the build edits this file and no longer finds the anchor "exports\.useRef =", the anchor "top-level `exports\.x = \.\.\.` statements only/,
    );
  });

  it('react, react-dom and preact are pinned to the installed version; a caret range or another install fails', () => {
    expect(Object.keys(EDITED_PACKAGES).sort()).toEqual(['preact', 'react', 'react-dom']);
    expect(unpinned()).toEqual([]);
    // a project folder whose package.json has a range for react and whose node_modules has another preact
    const root = join(dir, 'project');
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> };
    mkdirSync(root);
    writeFileSync(
      join(root, 'package.json'),
      JSON.stringify({ ...pkg, dependencies: { ...pkg.dependencies, react: '^19.3.1' } }),
    );
    for (const name of ['react', 'react-dom', 'preact']) {
      mkdirSync(join(root, 'node_modules', name), { recursive: true });
      copyFileSync(`node_modules/${name}/package.json`, join(root, 'node_modules', name, 'package.json'));
    }
    const preact = join(root, 'node_modules', 'preact', 'package.json');
    writeFileSync(preact, readFileSync(preact, 'utf8').replace(/"version": "[^"]+"/, '"version": "10.99.0"'));
    expect(unpinned(pathToFileURL(`${root}/`))).toEqual([
      'package.json: "react" is "^19.3.1"; build/react-esm.ts edits its text, so it must be one exact version',
      `${preact}: preact 10.99.0 is installed, package.json pins 10.29.8 (run \`npm ci\`)`,
    ]);
  });
});
