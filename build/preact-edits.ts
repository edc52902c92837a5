// What it edits: preact's core module (preact/dist/preact.module.js) and its hooks module in the
// lite builds. Why: the views are function components with hooks; the code preact keeps for class
// components (their lifecycle methods), error boundaries, context, forceUpdate, Suspense,
// dangerouslySetInnerHTML, svg/math elements and preact's devtools runs for none of them, and the
// minifier cannot tell. Each edit below replaces one text by what that code does when no component
// is a class, catches errors, reads a context, suspends, sets markup or is an svg/math element and
// no devtools are attached: -426 B of gzip for the first five, -113 B for the next three, -108 B for
// the namespaces, -39 B for the hooks' devtools report (2026-11-29). The build fails naming the file
// and the anchor when preact's text changed (build/pinned.ts), and naming the module when one of ours
// needs what the edits take out (needsEditedOut).
import type { Plugin } from 'vite';
import { missingAnchors } from './pinned.ts';

/** preact's core and hooks modules as the bundler loads them (a symlinked node_modules gives their real path). */
const PREACT = /[\\/]preact[\\/]dist[\\/]preact\.module\.js$/;
const HOOKS = /[\\/]preact[\\/]hooks[\\/]dist[\\/]hooks\.module\.js$/;
/** Any build of preact's core or hooks: one that is not the module above would come in unedited. */
const ANY_PREACT = /[\\/]preact[\\/]dist[\\/]preact\.[\w.]*js$/;
const ANY_HOOKS = /[\\/]preact[\\/]hooks[\\/]dist[\\/]hooks\.[\w.]*js$/;

/** One text of preact.module.js and what the lite build puts in its place, with why that is the same for our views. */
interface Edit {
  name: string;
  text: string;
  by: string;
}

export const PREACT_EDITS: Edit[] = [
  {
    // diff(): "is a class component" (a render method on the prototype). Always false: with it, the
    // class path (new, getDerivedStateFromProps, componentWillMount/DidMount/WillReceiveProps/
    // DidUpdate, getSnapshotBeforeUpdate, the class render) is dead code the minifier drops.
    name: 'the class component test',
    text: 'M=F.prototype&&F.prototype.render',
    by: 'M=!1',
  },
  {
    // diff(): a component's context (contextType, createContext). No component has one: the
    // context handed down is the parent's, which is empty (no provider's getChildContext).
    name: 'the context lookup',
    text: 'I=(s=F.contextType)&&i[s.__c],P=s?I?I.props.value:s.__:i',
    by: 'P=i',
  },
  {
    name: "a provider's child context",
    text: 'null!=p.getChildContext&&(i=m(m({},i),p.getChildContext())),',
    by: '',
  },
  {
    // options._catchError: the walk up to an error boundary (getDerivedStateFromError,
    // componentDidCatch); with none in the tree it ends by rethrowing the error, as now at once
    name: 'the error boundary walk',
    text:
      '__e:function(n,l,u,t){for(var i,r,o;l=l.__;)if((i=l.__c)&&!i.__)try{if((r=i.constructor)&&' +
      'null!=r.getDerivedStateFromError&&(i.setState(r.getDerivedStateFromError(n)),o=i.__d),' +
      'null!=i.componentDidCatch&&(i.componentDidCatch(n,t||{}),o=i.__d),o)return i.__E=i}catch(l){n=l}throw n}',
    by: '__e:function(n){throw n}',
  },
  {
    // Component.prototype.forceUpdate: called by class components only (hooks re-render with setState)
    name: 'forceUpdate',
    text: 'C.prototype.forceUpdate=function(n){this.__v&&(this.__e=!0,n&&this.__h.push(n),A(this))},',
    by: '',
  },
  {
    // diffElementNodes(): a `dangerouslySetInnerHTML` prop set or taken away (our modules have
    // none: the house style allows no innerHTML, and the check below fails the build on one)
    name: 'dangerouslySetInnerHTML',
    text: 'if(h)c||p&&(h.__html==p.__html||h.__html==u.innerHTML)||(u.innerHTML=h.__html),t.__k=[];else if(p&&(u.innerHTML=""),',
    by: 'if(',
  },
  {
    // diff(): a component that threw a promise (Suspense, lazy); ours throw none
    name: 'the suspended component',
    text: 'if(n.then){for(u.__u|=c?160:128;f&&8==f.nodeType&&f.nextSibling;)f=f.nextSibling;null!=o&&(o[o.indexOf(f)]=null),u.__e=f}else if(null!=o)',
    by: 'if(null!=o)',
  },
  {
    name: "the suspended component's siblings",
    text: 'n.then||B(u),',
    by: 'B(u),',
  },
  {
    // diffElementNodes(): the namespace of an `<svg>` or `<math>` element and their children (our
    // views render neither: the check below fails the build on one): the container's, HTML
    name: 'the svg and math namespaces',
    text: '"svg"==x?o="http://www.w3.org/2000/svg":"math"==x?o="http://www.w3.org/1998/Math/MathML":o||(o="http://www.w3.org/1999/xhtml")',
    by: 'o||(o="http://www.w3.org/1999/xhtml")',
  },
  {
    name: "an svg element's attribute names",
    text: 'if("http://www.w3.org/2000/svg"==i)l=l.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(',
    by: 'if(',
  },
  {
    name: "foreignObject's children",
    text: '"foreignObject"==x?"http://www.w3.org/1999/xhtml":o',
    by: 'o',
  },
];

/** The edit of preact/hooks' module (hooks.module.js). */
export const HOOKS_EDITS: Edit[] = [
  {
    // every hook call reports itself and its kind to preact/devtools' option hook (`options._hook`),
    // which only preact/debug and preact/devtools set; neither is in the bundle (refused below)
    name: 'the devtools report of each hook call',
    text: 'c.__h&&c.__h(r,n,o||t),o=0;',
    by: '',
  },
];

/** What our modules may not import from preact with these edits: each needs code they take out. */
const EDITED_OUT = ['Component', 'createContext', 'useContext', 'useErrorBoundary'];

/** Why a module of ours (its source) needs what the edits take out, or null. */
export function needsEditedOut(code: string): string | null {
  if (code.includes('dangerouslySetInnerHTML')) return 'uses dangerouslySetInnerHTML';
  const foreign = /<(svg|math)[\s/>]|createElement\(\s*['"](svg|math)['"]/.exec(code);
  if (foreign) return `renders <${foreign[1] ?? foreign[2]}>`;
  const whole = /import\s*['"](preact\/(?:compat|debug|devtools))['"]/.exec(code);
  if (whole) return `imports ${whole[1]}`;
  for (const [, names, from] of code.matchAll(/import\s*(\{[^}]*\}|\*\s*as\s+\w+)\s*from\s*['"](preact[^'"]*)['"]/g)) {
    const taken =
      names!.startsWith('*') || /^preact\/(compat|debug|devtools)$/.test(from!)
        ? [names!]
        : EDITED_OUT.filter((name) => new RegExp(`\\b${name}\\b`).test(names!));
    if (taken.length) return `imports ${taken.join(', ')} from ${from}`;
  }
  return null;
}

/** `code` (preact.module.js, or hooks.module.js with HOOKS_EDITS) with the edits made; throws naming `file` and every anchor missing. */
export function editPreact(file: string, code: string, edits: Edit[] = PREACT_EDITS): string {
  const problem = missingAnchors(
    file,
    code,
    edits.map(({ name, text }) => ({ name, text: (c: string) => c.split(text).length === 2 })),
  );
  if (problem) throw new Error(problem);
  return edits.reduce((out, { text, by }) => out.replace(text, by), code);
}

/** The modules edited, each with its edits and the pattern of any other build of it. */
const MODULES = [
  { file: PREACT, edits: PREACT_EDITS, any: ANY_PREACT, name: 'preact.module.js' },
  { file: HOOKS, edits: HOOKS_EDITS, any: ANY_HOOKS, name: 'hooks.module.js' },
];

/** The lite builds' edits of preact's core and hooks modules (PREACT_EDITS, HOOKS_EDITS), and the check that nothing of ours needs what they take out. */
export function preactEdits(): Plugin {
  const edited = new Set<string>();
  return {
    name: 'pagepulse:preact-edits',
    enforce: 'pre',
    buildStart() {
      edited.clear();
    },
    transform(code, id) {
      const module = MODULES.find(({ file }) => file.test(id));
      if (module) {
        edited.add(module.name);
        return { code: editPreact(id, code, module.edits), map: null };
      }
      if (id.includes('node_modules')) return null;
      const need = needsEditedOut(code);
      if (need)
        this.error(
          `${id} ${need}: the lite build edits class components, contexts, error boundaries, Suspense, ` +
            'dangerouslySetInnerHTML, svg/math and devtools out of preact (build/preact-edits.ts)',
        );
      return null;
    },
    buildEnd(error) {
      if (error) return;
      for (const { any, name } of MODULES) {
        const other = edited.has(name) ? undefined : [...this.getModuleIds()].find((id) => any.test(id));
        if (other)
          this.error(
            `${other}: preact came into the lite build from another file than ${name}, unedited (build/preact-edits.ts)`,
          );
      }
    },
  };
}
