// The React build's answer to react-dom/client's `require("react")` (build/react-esm.ts): only the two
// names react-dom reads, from React's own module, so the bundler can drop the React API our views
// never call (Children, class components, context, lazy, memo...). Same objects as `react` exports.
// @ts-expect-error React's CJS module, made ESM at build time by build/react-esm.ts; no types of its own
export { __CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE, version } from 'react/cjs/react.production.js';
