// What it edits: zod/mini's schema prototype (zod/v4/mini/schemas.js), $ZodType and the union,
// literal and pipe constructors (zod/v4/core/schemas.js), and $ZodError's initializer
// (zod/v4/core/errors.js). Why: it drops code the bundle carries but never runs: methods that are
// never tree-shaken because they sit on a prototype (`parse`, `parseAsync`, `with`, `brand`...), the
// Standard Schema accessor, the `z.encode()` ("backward") branches, lazily derived internals of
// schema kinds we do not use, and the error's pretty-printed message. Every edit fails the build
// when its anchor text is gone, so an update of zod cannot leave a patch silently unapplied.
import type { Plugin } from 'vite';

/**
 * The lazily derived internals (`optin`, `optout`, `values`, `pattern`, `propValues`) that zod's
 * union, literal and pipe schemas declare for the schema kinds that read them: objects, optional
 * and default values, records, discriminated unions, template literals, JSON Schema output. We use
 * none of those kinds, so nothing ever reads them; dropping the declarations drops zod's lazy
 * internal machinery. Fails the build when a constructor no longer has them.
 */
function dropLazyInternals(code: string, id: string, fail: (message: string) => never): string {
  let out = code;
  for (const name of ['$ZodUnion', '$ZodLiteral', '$ZodPipe']) {
    const start = out.indexOf(`export const ${name} = /*@__PURE__*/ core.$constructor("${name}", (inst, def) => {`);
    const end = start < 0 ? -1 : out.indexOf('\n});\n', start);
    if (end < 0) fail(`zod changed: no ${name} constructor in ${id}`);
    let body = out.slice(start, end);
    const call = 'util.defineLazyInternal(inst, "';
    let dropped = 0;
    for (let at = body.indexOf(call); at >= 0; at = body.indexOf(call)) {
      let depth = 0;
      let i = at + 'util.defineLazyInternal'.length; // the call's opening parenthesis
      for (; i < body.length; i++) {
        if (body[i] === '(') depth++;
        else if (body[i] === ')' && --depth === 0) break;
      }
      if (body[i + 1] !== ';') fail(`zod changed: unexpected defineLazyInternal call in ${name} (${id})`);
      body = body.slice(0, at) + body.slice(i + 2);
      dropped++;
    }
    if (dropped === 0) fail(`zod changed: ${name} declares no lazy internals in ${id}`);
    out = out.slice(0, start) + body + out.slice(end);
  }
  return out;
}

/**
 * zod/mini's schema prototype carries methods nothing here calls (`parse`, `parseAsync`,
 * `safeParseAsync`, `with`, `brand`, `register`, `apply`): as methods they are never tree-shaken,
 * and they pull in zod's throwing and async parse paths. We validate with `z.safeParse` and build
 * schemas with `.check`/`.clone` only. Drop those methods at build time; the build fails if zod's
 * source no longer has them in this form.
 */
export function zodMiniMethods(): Plugin {
  const methods = [
    `    // \`with\` is an alias for \`check\`: the same function object, not a wrapper.
    get with() {
        return this.check;
    },
    set with(value) {
        util.own(this, "with", value);
    },
    parse(data, params) {
        return parse.parse(this, data, params, { callee: this.parse });
    },
    parseAsync(data, params) {
        return parse.parseAsync(this, data, params, { callee: this.parseAsync });
    },
`,
    `    safeParseAsync(data, params) {
        return parse.safeParseAsync(this, data, params);
    },
`,
    `    brand() {
        return this;
    },
    register(reg, meta) {
        reg.add(this, meta);
        return this;
    },
    apply(fn, ...args) {
        return args.length === 0 ? fn(this) : fn(this, ...args);
    },
`,
  ];
  // the Standard Schema accessor (`schema['~standard']`, for libraries that accept any validator):
  // nothing here hands our schemas to such a library
  const standard = `{
    // Wrappers extend this by installing a richer factory over it; reading it eagerly would defeat the laziness.
    get "~standard"() {
        return util.hide(this, "~standard", standardProps(this));
    },
    set "~standard"(value) {
        util.own(this, "~standard", value);
    },
});`;
  const backward = 'ctx.direction === "backward"';
  // a failed parse's error: we read its `issues` only; its lazily pretty-printed JSON `message`
  // and the `toString` it installs on its prototype are code nothing here runs
  const errorMessage = `    Object.defineProperty(inst, "message", _messageDesc);
    /* \`toString\` lives as a non-enumerable lazy getter on the shared
     * prototype; on first access it caches a per-instance closure so
     * detached usage still works. */
    const proto = Object.getPrototypeOf(inst);
    if (!_installedToString.has(proto)) {
        _installedToString.add(proto);
        Object.defineProperty(proto, "toString", {
            configurable: true,
            enumerable: false,
            get() {
                const value = () => this.message;
                Object.defineProperty(this, "toString", { value, configurable: true, writable: true });
                return value;
            },
            set(value) {
                Object.defineProperty(this, "toString", { value, configurable: true, writable: true });
            },
        });
    }
`;
  return {
    name: 'pagepulse-zod-mini-methods',
    transform(code, id) {
      if (/zod[\\/]v4[\\/]core[\\/]errors\.js$/.test(id)) {
        if (!code.includes(errorMessage)) this.error(`zod changed: $ZodError's initializer in ${id} is not as expected`);
        return { code: code.replace(errorMessage, ''), map: null };
      }
      if (/zod[\\/]v4[\\/]core[\\/]schemas\.js$/.test(id)) {
        if (!code.includes(standard)) this.error(`zod changed: $ZodType's "~standard" accessor in ${id} is not as expected`);
        // only z.encode() parses "backward"; we never encode, so its branches are dead code
        if (!code.includes(backward)) this.error(`zod changed: no "${backward}" in ${id}`);
        return {
          code: dropLazyInternals(code.replace(standard, '{});').replaceAll(backward, 'false'), id, (message) =>
            this.error(message),
          ),
          map: null,
        };
      }
      if (!/zod[\\/]v4[\\/]mini[\\/]schemas\.js$/.test(id)) return null;
      let out = code;
      for (const method of methods) {
        if (!out.includes(method)) this.error(`zod changed: ZodMiniType's methods in ${id} are not as expected`);
        out = out.replace(method, '');
      }
      return { code: out, map: null };
    },
  };
}
