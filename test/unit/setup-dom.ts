// jsdom has no CSS.escape (browsers and happy-dom do): the unit suites get the standard polyfill,
// so the product code calls CSS.escape as it does in every browser it supports.
import 'css.escape';
