// Demo analytics tag (cookie category 3, Statistiken). The bundle activates it only after consent;
// it leaves visible traces so tests can see that, and in which order, tags ran.
(function () {
  'use strict';
  (window.demoTagOrder = window.demoTagOrder || []).push('analytics-tag');
  document.documentElement.dataset.analyticsTag = 'loaded';
})();
