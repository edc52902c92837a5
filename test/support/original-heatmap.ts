/**
 * A test-side stand-in for the original heatmap client (the analytics component's jQuery plugin),
 * written from the original algorithm as docs/protocol.md#click-selector states it (the component's
 * own heatmap.js is not in this repository) WITHOUT PagePulse's departures: no state-class filter,
 * no escaping, no `body>` prefix. Every step is jQuery 1.12.4's own, from npm, in the page: the
 * class text collapsed with `$.trim`, the classes left out with `$.isNumeric` (so `7`, `1e3`, `+5`,
 * `-5`, `0x1f` go, `5px` and `Infinity` stay), the `:nth-child` decision by `$parent.children(step)`
 * (Sizzle) and `$node.index()`, and the call through the real `$.ajax` (settings deep-copied with
 * `jQuery.extend`, then `$.param`). It sends to `{base}` = `/orig/`, so that the recording server
 * can tell its calls from the bundle's.
 *
 * Page globals: `window.__originalSelector(element)`, `window.__originalClicks` (the selectors
 * it sent, in order) and `window.__originalElements` (the elements they were taken from).
 */
export const ORIGINAL_HEATMAP_CLIENT = `(function ($) {
  var BASE = '/orig/';
  var MAX_WIDTH = 350, MAX_HEIGHT = 50;
  function keep(name) {
    return name !== '' && !$.isNumeric(name) && !/[\\[\\].:,=]/.test(name) &&
      name !== 'vs-highlight' && name !== 'vs-pre-highlight';
  }
  function originalSelector(element) {
    var steps = [];
    var $node = $(element);
    while ($node.length && !$node.is('body') && !$node.is('html')) {
      var node = $node[0];
      var step = node.tagName.toLowerCase();
      var text = typeof node.className === 'string' ? $.trim(node.className.replace(/\\s+/g, ' ')) : '';
      $.each(text ? text.split(' ') : [], function (i, name) { if (keep(name)) step += '.' + name; });
      var $parent = $node.parent();
      if ($parent.children(step).length > 1) step += ':nth-child(' + ($node.index() + 1) + ')';
      steps.unshift(step);
      $node = $parent;
    }
    return steps.join('>');
  }
  window.__originalSelector = originalSelector;
  window.__originalClicks = [];
  window.__originalElements = [];
  $(document).on('click', function (event) {
    var $target = $(event.target);
    if ($target.width() > MAX_WIDTH || $target.height() > MAX_HEIGHT) return;
    var selector = originalSelector(event.target);
    var state = $('#vs_state').val();
    if (state) selector += ':' + String(state).substr(0, 200);
    window.__originalClicks.push(selector);
    window.__originalElements.push(event.target);
    $.ajax({
      type: 'POST',
      url: BASE + 'index.php?option=com_jrealtimeanalytics&task=stream.saveEntity&format=json',
      data: { resource: 'heatmapclick', clicked_element: selector, nowpage: window.location.href },
      dataType: 'json',
      cache: false
    });
  });
})(window.jQuery);`;
