// What it edits: preact's core module (preact/dist/preact.module.js) in the lite builds. Why: the
// views are function components with hooks; the code preact keeps for class components (their
// lifecycle methods), error boundaries, context, forceUpdate, Suspense, dangerouslySetInnerHTML and
// svg/math elements runs for none of them, and the minifier cannot tell. Each edit below replaces one
// text by what that code does when no component is a class, catches errors, reads a context,
// suspends, sets markup or is an svg/math element: -426 B of gzip for the first five, -113 B for the
// next three, -108 B for the namespaces (2026-11-29). The build fails naming the file and the anchor
// when preact's text changed (build/pinned.ts), and naming the module when one of ours needs what the
// edits take out (needsEditedOut).
import type { Plugin } from 'vite';
import { missingAnchors } from './pinned.ts';

/** preact's core module as the bundler loads it (a symlinked node_modules gives its real path). */
const PREACT = /[\\/]preact[\\/]dist[\\/]preact\.module\.js$/;
/** Any build of preact's core: one that is not the module above would come in unedited. */
const ANY_PREACT = /[\\/]preact[\\/]dist[\\/]preact\.[\w.]*js$/;

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

/** What our modules may not import from preact with these edits: each needs code they take out. */
const EDITED_OUT = ['Component', 'createContext', 'useContext', 'useErrorBoundary'];

/** Why a module of ours (its source) needs what the edits take out, or null. */
export function needsEditedOut(code: string): string | null {
  if (code.includes('dangerouslySetInnerHTML')) return 'uses dangerouslySetInnerHTML';
  const foreign = /<(svg|math)[\s/>]|createElement\(\s*['"](svg|math)['"]/.exec(code);
  if (foreign) return `renders <${foreign[1] ?? foreign[2]}>`;
  for (const [, names, from] of code.matchAll(/import\s*(\{[^}]*\}|\*\s*as\s+\w+)\s*from\s*['"](preact[^'"]*)['"]/g)) {
    const taken =
      names!.startsWith('*') || from === 'preact/compat'
        ? [names!]
        : EDITED_OUT.filter((name) => new RegExp(`\\b${name}\\b`).test(names!));
    if (taken.length) return `imports ${taken.join(', ')} from ${from}`;
  }
  return null;
}

/** `code` (preact.module.js) with the edits made; throws naming `file` and every anchor missing. */
export function editPreact(file: string, code: string): string {
  const problem = missingAnchors(
    file,
    code,
    PREACT_EDITS.map(({ name, text }) => ({ name, text: (c: string) => c.split(text).length === 2 })),
  );
  if (problem) throw new Error(problem);
  return PREACT_EDITS.reduce((out, { text, by }) => out.replace(text, by), code);
}

/** The lite builds' edits of preact's core module (PREACT_EDITS), and the check that nothing of ours needs what they take out. */
export function preactEdits(): Plugin {
  let edited = false;
  return {
    name: 'pagepulse:preact-edits',
    enforce: 'pre',
    buildStart() {
      edited = false;
    },
    transform(code, id) {
      if (PREACT.test(id)) {
        edited = true;
        return { code: editPreact(id, code), map: null };
      }
      if (id.includes('node_modules')) return null;
      const need = needsEditedOut(code);
      if (need)
        this.error(
          `${id} ${need}: the lite build edits class components, contexts, error boundaries, Suspense, ` +
            'dangerouslySetInnerHTML and svg/math out of preact (build/preact-edits.ts)',
        );
      return null;
    },
    buildEnd(error) {
      if (error || edited) return;
      const other = [...this.getModuleIds()].find((id) => ANY_PREACT.test(id));
      if (other)
        this.error(
          `${other}: preact came into the lite build from another file than preact.module.js, unedited (build/preact-edits.ts)`,
        );
    },
  };
}
