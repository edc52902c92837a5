// Demo advertising pixel (cookie category 4, Marketing): queues a PageView the way real pixels do,
// and leaves visible traces so tests can see that, and in which order, tags ran.
(function () {
  'use strict';
  (window.adPixelQueue = window.adPixelQueue || []).push({ event: 'PageView' });
  (window.demoTagOrder = window.demoTagOrder || []).push('ad-pixel');
  document.documentElement.dataset.adPixel = 'loaded';
})();
