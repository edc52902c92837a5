// build/preact-edits.ts: the lite build's edits of preact's core. The edited preact renders the
// views' kind of component (a function with state and an effect) through src/ui/react-root.tsx with
// the lite build's stand-ins for React, updates and unmounts it; a changed preact fails the build
// naming the anchor, and a module of ours importing what the edits take out fails it naming the module.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { describe, expect, it } from 'vitest';
import { editPreact, HOOKS_EDITS, JSX_EDITS, needsEditedOut, PREACT_EDITS, preactEdits } from '../../build/preact-edits';
import { bundle, expectEntryRenders, fixture } from './bundle';

/** The lite build's aliases of React's modules (vite.config.ts), as a plugin for the test build. */
const liteAliases: Plugin = {
  name: 'lite-aliases',
  enforce: 'pre',
  resolveId(source) {
    if (source === 'react/jsx-runtime') return this.resolve('preact/jsx-runtime');
    const file = { react: 'react.ts', 'react-dom': 'react-dom.ts', 'react-dom/client': 'react-dom-client.ts' }[source];
    return file ? fileURLToPath(new URL(`../../src/ui/lite/${file}`, import.meta.url)) : null;
  },
};

const PREACT = 'node_modules/preact/dist/preact.module.js';
const HOOKS = 'node_modules/preact/hooks/dist/hooks.module.js';
const JSX = 'node_modules/preact/jsx-runtime/dist/jsxRuntime.module.js';

describe("the lite build's edits of preact (build/preact-edits.ts)", () => {
  it('renders a function component with state and an effect, updates and unmounts it', async () => {
    const code = await bundle(fixture('react-entry.ts'), [liteAliases, preactEdits()]);
    // the edited text, not preact's: the error boundary walk, forceUpdate and the hooks' devtools report are gone
    expect(code).not.toContain('getDerivedStateFromError');
    expect(code).not.toContain('forceUpdate');
    expect(code).not.toMatch(/\.__h\([\w$]+, [\w$]+, [\w$]+ \|\| [\w$]+\)/);
    await expectEntryRenders(code);
  });

  it('makes each edit once in the installed preact; a changed text fails naming the file and the anchor', () => {
    const text = readFileSync(PREACT, 'utf8');
    const edited = editPreact(PREACT, text);
    for (const { text: anchor } of PREACT_EDITS) expect(edited).not.toContain(anchor);
    const hooks = editPreact(HOOKS, readFileSync(HOOKS, 'utf8'), HOOKS_EDITS);
    for (const { text: anchor } of HOOKS_EDITS) expect(hooks).not.toContain(anchor);
    const jsx = editPreact(JSX, readFileSync(JSX, 'utf8'), JSX_EDITS);
    for (const { text: anchor } of JSX_EDITS) expect(jsx).not.toContain(anchor);
    const changed = text.replace('M=F.prototype&&F.prototype.render', 'M=F.prototype&&!!F.prototype.render');
    expect(() => editPreact(PREACT, changed)).toThrow(
      'node_modules/preact/dist/preact.module.js: the build edits this file and no longer finds the anchor "the class component test"',
    );
  });

  it('a module importing Component from preact: the build fails naming it', async () => {
    await expect(bundle(fixture('imports-preact-component.ts'), [liteAliases, preactEdits()])).rejects.toThrow(
      /imports-preact-component\.ts imports Component from preact: the lite build edits class components, contexts, error boundaries, Suspense, dangerouslySetInnerHTML, svg\/math, template\/textarea\/progress\/option, the style, popover, defaultValue\/defaultChecked and capture props and devtools out of preact/,
    );
  });

  it("refuses our modules' use of what the edits take out, and nothing else", () => {
    expect(
      needsEditedOut("import { createElement, options } from 'preact';\nimport { useState } from 'preact/hooks';"),
    ).toBeNull();
    expect(needsEditedOut("import { useContext } from 'preact/hooks';")).toBe('imports useContext from preact/hooks');
    expect(needsEditedOut("import { Suspense } from 'preact/compat';")).toBe('imports { Suspense } from preact/compat');
    expect(needsEditedOut("import * as preact from 'preact';")).toBe('imports * as preact from preact');
    expect(needsEditedOut("import 'preact/debug';")).toBe('imports preact/debug');
    expect(needsEditedOut('<div dangerouslySetInnerHTML={{ __html: text }} />')).toBe('uses dangerouslySetInnerHTML');
    expect(needsEditedOut('<svg viewBox="0 0 8 8"><path d="M0 0" /></svg>')).toBe('renders <svg>');
    expect(needsEditedOut("createElement('math', null)")).toBe('renders <math>');
    expect(needsEditedOut("import { useId } from 'preact/hooks';")).toBe('imports useId from preact/hooks');
    expect(needsEditedOut("import { hydrate } from 'preact';")).toBe('imports hydrate from preact');
    expect(needsEditedOut('View.defaultProps = { open: false };')).toBe('uses defaultProps');
    expect(needsEditedOut("import { options } from 'preact';\noptions.debounceRendering = queueMicrotask;")).toBe(
      'uses options.debounceRendering of preact',
    );
    expect(needsEditedOut("import { options } from 'preact';\noptions.vnode = (vnode) => vnode;")).toBeNull();
    expect(needsEditedOut("import { options } from 'preact';\noptions.__r = (vnode) => vnode;")).toBeNull();
    const render = "calls preact's render otherwise than render(tree, element)";
    expect(needsEditedOut("import { render } from 'preact';\nrender(tree, host, host.firstChild);")).toBe(render);
    expect(needsEditedOut("import { render } from 'preact';\nrender(tree, document);")).toBe(render);
    expect(
      needsEditedOut(
        "import { render } from 'preact';\nconst r: { render(tree: T): void } = { render: (t) => render(h(t, {}), host) };",
      ),
    ).toBeNull();
    // the description sanitizer's list of dropped tags names them as strings: no element rendered
    expect(needsEditedOut("const DROPPED = new Set(['svg', 'math']);")).toBeNull();
    // a view (.tsx): the elements with their own value rules, a template, and the style prop
    expect(needsEditedOut('<textarea value={text} />', true)).toBe('renders <textarea>');
    expect(needsEditedOut('<select><option value="a">A</option></select>', true)).toBe('renders <option>');
    expect(needsEditedOut('<template>{children}</template>', true)).toBe('renders <template>');
    expect(needsEditedOut('<div style={{ width: 10 }} />', true)).toBe('sets a style prop');
    expect(needsEditedOut('<div style="width: 10px" />', true)).toBe('sets a style prop');
    expect(needsEditedOut("createElement('div', { style: { width: 10 } })", true)).toBe('sets a style prop');
    expect(needsEditedOut('<div onClickCapture={stop} />', true)).toBe('sets onClickCapture');
    expect(needsEditedOut('<div popover="manual" />', true)).toBe('sets popover');
    expect(needsEditedOut('<input type="checkbox" defaultChecked={on} />', true)).toBe('sets defaultChecked');
    expect(needsEditedOut('<input defaultValue="x" />', true)).toBe('sets defaultValue');
    expect(needsEditedOut('<div className="x" role="dialog" />', true)).toBeNull();
    // a plain module builds DOM by hand: its element names and style writes are not preact's
    expect(needsEditedOut("const el = doc.createElement('template');\nel.style.width = '1px';")).toBeNull();
  });
});
