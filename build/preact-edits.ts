// What it edits: preact's core module (preact/dist/preact.module.js), its hooks module and its jsx
// runtime in the lite builds. Why: the views are function components with hooks; the code preact keeps for class
// components (their lifecycle methods), error boundaries, context, forceUpdate, Suspense,
// dangerouslySetInnerHTML, svg/math elements and preact's devtools runs for none of them, and the
// minifier cannot tell. Each edit below replaces one text by what that code does when no component
// is a class, catches errors, reads a context, suspends, sets markup or is an svg/math element and
// no devtools are attached: -426 B of gzip for the first five, -113 B for the next three, -108 B for
// the namespaces, -39 B for the hooks' devtools report (2026-11-29); -173 B for defaultProps, the
// options nothing sets (debounceRendering, event, requestAnimationFrame, _root with useId's mask),
// render()'s replace node, hydration and document, and the error boundary's pending error (stop 56,
// "Size, round 7"); -255 B for the style prop, a template's content and the value rules of
// textarea, progress and option, -33 B for the jsx runtime's __source/__self and defaultProps, -62 B
// for the capture event props, -39 B for isHydrating in diffElementNodes, -18 B for the reads of
// dangerouslySetInnerHTML, -39 B for the popover, defaultValue and defaultChecked props (round 8,
// "Size, round 8"). The build fails naming the file
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
const JSX = /[\\/]preact[\\/]jsx-runtime[\\/]dist[\\/]jsxRuntime\.module\.js$/;
const ANY_JSX = /[\\/]preact[\\/]jsx-runtime[\\/]dist[\\/]jsxRuntime\.[\w.]*js$/;

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
  {
    // createElement(): a component's `defaultProps` merged into its props. Our components are
    // functions that set none (the check below fails the build on a module that names defaultProps)
    name: 'defaultProps',
    text: ',"function"==typeof l&&null!=l.defaultProps)for(o in l.defaultProps)void 0===e[o]&&(e[o]=l.defaultProps[o]);return',
    by: ');return',
  },
  {
    // enqueueRender(): options.debounceRendering, which nothing sets (our modules set only
    // options.vnode, checked below): the render queue is always flushed by the microtask
    name: 'options.debounceRendering',
    text: '!H.__r++||r!=l.debounceRendering)&&((r=l.debounceRendering)||o)(H)',
    by: '!H.__r++)&&o(H)',
  },
  {
    // the event proxy: options.event, which nothing sets
    name: 'options.event',
    text: 'return t(l.event?l.event(u):u)',
    by: 'return t(u)',
  },
  {
    // render(): our one call (src/ui/lite/react-dom-client.ts) passes a tree and an element, never
    // the document, a node to replace or hydrate's marker (hydrate is refused below); options._root
    // is set only by preact/hooks for useId, edited out of it (HOOKS_EDITS)
    name: 'render() with a replace node, hydration or the document',
    text:
      'function R(u,t,i){var r,o,e,f;t==document&&(t=document.documentElement),l.__&&l.__(u,t),' +
      'o=(r="function"==typeof i)?null:i&&i.__k||t.__k,e=[],f=[],q(t,u=(!r&&i||t).__k=k(S,null,[u]),' +
      'o||d,d,t.namespaceURI,!r&&i?[i]:o?null:t.firstChild?n.call(t.childNodes):null,e,!r&&i?i:o?o.__e:t.firstChild,r,f)',
    by:
      'function R(u,t){var o,e,f;o=t.__k,e=[],f=[],q(t,u=t.__k=k(S,null,[u]),' +
      'o||d,d,t.namespaceURI,o?null:t.firstChild?n.call(t.childNodes):null,e,o?o.__e:t.firstChild,!1,f)',
  },
  {
    // diff(): an error boundary's pending error, set only by the error boundary walk (edited out)
    name: "the error boundary's pending error",
    text: 't.__c?k=(p=u.__c=t.__c).__=p.__E:(',
    by: 't.__c?p=u.__c=t.__c:(',
  },
  {
    name: "the error boundary's pending error, cleared",
    text: ',k&&(p.__E=p.__=null)',
    by: '',
  },
  {
    // setProperty(): a `style` prop, as a text or an object of properties (with the numbers it
    // writes in px and the list of properties that take none). No view of ours sets one (they style
    // through their shadow root's sheet; the check below fails the build on a `style` prop): with the
    // branch go the per-property setter and its regular expression (round 8)
    name: 'the style prop',
    text:
      'if("style"==l)if("string"==typeof u)n.style.cssText=u;else{if("string"==typeof t&&(n.style.cssText=t=""),t)' +
      'for(l in t)u&&l in u||z(n.style,l,"");if(u)for(l in u)t&&u[l]==t[l]||z(n.style,l,u[l])}else if(',
    by: 'if(',
  },
  {
    // diffElementNodes(): a `<template>` element's children go into its content; we render none
    name: "a template's content",
    text: 'L("template"==t.type?u.content:u,',
    by: 'L(u,',
  },
  {
    // diffElementNodes(): the value of a `<textarea>`, `<progress>` or `<option>` (each its own
    // rule); our views render none of them (checked below), so a value is set as any element's
    name: 'the value of a textarea, progress or option',
    text:
      'c&&"textarea"!=x||(s="value","progress"==x&&null==w?u.removeAttribute("value"):null!=w&&(w!==u[s]||' +
      '"progress"==x&&!w||"option"==x&&w!=m[s])&&N(u,s,w,m[s],o),',
    by: '(s="value",null!=w&&w!==u[s]&&N(u,s,w,m[s],o),',
  },
  {
    name: "a textarea's default value",
    text: 'e="textarea"==x&&null!=k.defaultValue?null:e&&n.call(u.childNodes)',
    by: 'e=e&&n.call(u.childNodes)',
  },
  {
    // diffElementNodes(): the reads of a `dangerouslySetInnerHTML` prop, old and new, for the edit
    // above that took out its use (refused below)
    name: 'dangerouslySetInnerHTML, the old prop',
    text: '"dangerouslySetInnerHTML"==s?p=y:"children"==s',
    by: '"children"==s',
  },
  {
    name: 'dangerouslySetInnerHTML, the new prop',
    text: '"dangerouslySetInnerHTML"==s?h=y:"value"==s',
    by: '"value"==s',
  },
  {
    // setProperty(): a `popover` prop is set as an attribute (`true` as ""), never as the property;
    // no view of ours sets one (the surfaces' hosts get theirs from src/ui/mount.ts, by hand; checked
    // below), so the name is never seen and the list of attribute-only names loses it
    name: 'the popover prop',
    text: '"role"!=l&&"popover"!=l&&l in n',
    by: '"role"!=l&&l in n',
  },
  {
    name: "the popover prop's value",
    text: 'n.setAttribute(l,"popover"==l&&1==u?"":u)',
    by: 'n.setAttribute(l,u)',
  },
  {
    // diffElementNodes(): an old `value` or `checked` kept when the new props give `defaultValue` or
    // `defaultChecked`; no view of ours gives either (checked below)
    name: 'defaultValue and defaultChecked',
    text: '"value"==s&&"defaultValue"in k||"checked"==s&&"defaultChecked"in k||',
    by: '',
  },
  {
    // diffElementNodes(): `c` is isHydrating, false in every call: render() passes false (edited
    // above: hydrate is refused) and the diff sets it from the hydration flag of a suspended vnode
    // only, which nothing sets with Suspense edited out. The textarea edit above drops its `c||` too.
    name: 'hydration: the mismatch report',
    text: 'c&&(l.__m&&l.__m(t,e),c=!1),',
    by: '',
  },
  {
    name: "hydration: a text node's data",
    text: 'm===k||c&&u.data==k||(u.data=k)',
    by: 'm===k||(u.data=k)',
  },
  {
    name: "hydration: an element's attributes",
    text: ',!c&&null!=e)for(m={}',
    by: ',null!=e)for(m={}',
  },
  {
    name: "hydration: an element's props",
    text: 'c&&"function"!=typeof y||m[s]===y||N(',
    by: 'm[s]===y||N(',
  },
  {
    // setProperty(): an `on...Capture` prop listens in the capture phase, through its own proxy and
    // its own key. No view of ours has one (checked below): every listener is the bubbling one, as
    // for any other event prop (the key and the proxy stay those of `capture` false)
    name: 'capture event props',
    text: 'r=l!=(l=l.replace(s,"$1")),',
    by: '',
  },
  {
    name: 'capture event props, the listener',
    text: 'n.l[l+r]=u,u?t?u[a]=t[a]:(u[a]=h,n.addEventListener(l,r?v:p,r)):n.removeEventListener(l,r?v:p,r)',
    by: 'n.l[l+!1]=u,u?t?u[a]=t[a]:(u[a]=h,n.addEventListener(l,p,!1)):n.removeEventListener(l,p,!1)',
  },
  {
    name: 'capture event props, the name pattern',
    text: 's=/(PointerCapture)$|Capture$/i,',
    by: '',
  },
  {
    name: 'capture event props, the proxy',
    text: 'v=V(!0),',
    by: '',
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
  {
    // options._root: only useId reads the mask it hands down (useId is refused below)
    name: "useId's root mask",
    text: 'c.__=function(n,t){n&&t.__k&&t.__k.__m&&(n.__m=t.__k.__m),p&&p(n,t)},',
    by: '',
  },
  {
    name: "useId's root mask, the previous option",
    text: 'm=c.unmount,p=c.__;',
    by: 'm=c.unmount;',
  },
  {
    // the effects' scheduling: options.requestAnimationFrame, which nothing sets (checked below)
    name: 'options.requestAnimationFrame',
    text: '1!==f.push(t)&&i===c.requestAnimationFrame||((i=c.requestAnimationFrame)||w)(j)',
    by: '1!==f.push(t)||w(j)',
  },
];

/** The edits of preact's jsx runtime (jsxRuntime.module.js), which makes every vnode of our views. */
export const JSX_EDITS: Edit[] = [
  {
    // the development fields `__source`/`__self` of each vnode: only preact/debug reads them (refused
    // below), and the production transform passes neither, so both were always undefined (round 8)
    name: "a vnode's __source and __self",
    text: ',__source:i,__self:u}',
    by: '}',
  },
  {
    // a component's `defaultProps` merged into its props, as createElement's edit above
    name: 'defaultProps in jsx()',
    text: 'if("function"==typeof e&&(a=e.defaultProps))for(c in a)void 0===p[c]&&(p[c]=a[c]);',
    by: '',
  },
];

/** What our modules may not import from preact with these edits: each needs code they take out. */
const EDITED_OUT = ['Component', 'createContext', 'useContext', 'useErrorBoundary', 'useId', 'hydrate'];

/**
 * The options of preact's our modules may set (`vnode`, and `__r`, its `_render`, for the component
 * being rendered: src/ui/lite/react.ts); the edits take out the reads of debounceRendering, event,
 * requestAnimationFrame and _root.
 */
const OPTIONS_SET = ['vnode', '__r'];

/**
 * Why a module of ours (its source) needs what the edits take out, or null. `views`: the module is a
 * view (`.tsx`, where JSX renders elements and sets props), checked also for the elements and the
 * `style` prop the edits take out (a `.ts` module builds DOM by hand, never through preact).
 */
export function needsEditedOut(code: string, views = false): string | null {
  if (code.includes('dangerouslySetInnerHTML')) return 'uses dangerouslySetInnerHTML';
  if (code.includes('defaultProps')) return 'uses defaultProps';
  if (views) {
    // the elements and the prop whose code the edits take out of diffElementNodes and setProperty
    const element = /<(template|textarea|progress|option)[\s/>]/.exec(code);
    if (element) return `renders <${element[1]}>`;
    if (/(?<![\w$.-])style\s*=\s*[{"']|\bstyle\s*:/.test(code)) return 'sets a style prop';
    const capture = /\b(on[A-Z]\w*Capture)\s*[=:]/.exec(code);
    if (capture) return `sets ${capture[1]}`;
    const prop = /\b(popover|defaultValue|defaultChecked)\s*[=:]/.exec(code);
    if (prop) return `sets ${prop[1]}`;
  }
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
    if (from === 'preact' && /\boptions\b/.test(names!)) {
      const other = [...code.matchAll(/\boptions\s*(?:\.\s*([\w$]+)|\[)/g)].find((m) => !OPTIONS_SET.includes(m[1]!));
      if (other) return `uses options${other[1] ? `.${other[1]}` : '[...]'} of preact`;
    }
    if (from === 'preact' && /\brender\b/.test(names!)) {
      // render(tree, element) only: the edit took out the replace node, hydration and the document
      if (renderCalls(code).some((args) => args.length !== 2 || args[1]!.trim() === 'document'))
        return "calls preact's render otherwise than render(tree, element)";
    }
  }
  return null;
}

/** The arguments (texts) of each call of a bare `render(` in `code`; a method signature `render(x: T)` is none. */
function renderCalls(code: string): string[][] {
  const calls: string[][] = [];
  for (const match of code.matchAll(/(?<![.\w$])render\s*\(/g)) {
    const args: string[] = [];
    let depth = 0;
    let start = match.index + match[0].length;
    let i = start;
    for (; i < code.length; i++) {
      const c = code[i]!;
      if ('([{'.includes(c)) depth++;
      else if (')]}'.includes(c)) {
        if (depth-- === 0) break;
      } else if (c === ',' && depth === 0) {
        args.push(code.slice(start, i));
        start = i + 1;
      }
    }
    args.push(code.slice(start, i));
    if (/^\s*[\w$]+\s*\??:/.test(args[0]!)) continue;
    calls.push(args.filter((arg, n) => n < args.length - 1 || arg.trim() !== ''));
  }
  return calls;
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
  { file: JSX, edits: JSX_EDITS, any: ANY_JSX, name: 'jsxRuntime.module.js' },
];

/** The lite builds' edits of preact's core, hooks and jsx runtime modules (PREACT_EDITS, HOOKS_EDITS, JSX_EDITS), and the check that nothing of ours needs what they take out. */
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
      const need = needsEditedOut(code, /\.[jt]sx$/.test(id));
      if (need)
        this.error(
          `${id} ${need}: the lite build edits class components, contexts, error boundaries, Suspense, ` +
            'dangerouslySetInnerHTML, svg/math, template/textarea/progress/option, the style, popover, defaultValue/defaultChecked and capture props ' +
            'and devtools ' +
            'out of preact (build/preact-edits.ts)',
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
