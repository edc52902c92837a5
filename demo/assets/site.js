// Theme behaviour of the Lichtwerk demo site: transparent header and sticky slide-in navbar,
// mobile menu, contact form thanks, QA links. Loaded as a file (no inline code) so the pages run
// under a strict `default-src 'self'` Content-Security-Policy.
(function () {
  'use strict';

  /** Scroll offset (px) past which the navbar sticks and slides in: the theme's setting. */
  var STICKY_OFFSET = 300;

  var header = document.querySelector('.site-header');
  if (header) {
    // the theme's per-page setting lives on the first section, as in the CMS's layout builder
    var first = document.querySelector('main > section');
    if (first && first.getAttribute('data-header-transparent') === 'true') header.classList.add('is-overlay');

    var pending = false;
    var update = function () {
      pending = false;
      header.classList.toggle('is-sticky', window.scrollY > STICKY_OFFSET);
    };
    window.addEventListener(
      'scroll',
      function () {
        if (pending) return;
        pending = true;
        window.requestAnimationFrame(update);
      },
      { passive: true },
    );
    update(); // a reload keeps the scroll position

    var toggle = header.querySelector('.nav-toggle');
    if (toggle) {
      header.classList.add('js-nav'); // collapse the menu on small screens only when it can reopen
      toggle.addEventListener('click', function () {
        toggle.setAttribute('aria-expanded', String(toggle.getAttribute('aria-expanded') !== 'true'));
      });
      // the menu links are in-page anchors: close the menu once one is chosen
      header.addEventListener('click', function (event) {
        if (event.target instanceof Element && event.target.closest('.uk-navbar-nav a'))
          toggle.setAttribute('aria-expanded', 'false');
      });
    }
  }

  var form = document.getElementById('kontaktformular');
  var status = document.getElementById('kontakt-status');
  if (form && status) {
    // the browser checks the required fields before `submit` fires; nothing is sent in the demo
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var name = form.elements.namedItem('jform[name]').value.trim();
      status.textContent =
        'Danke' +
        (name ? ', ' + name : '') +
        '! Ihre Nachricht ist angekommen – wir melden uns innerhalb von zwei Werktagen. (Demo: Es wurde nichts versendet.)';
    });
  }

  // the bookmarklet is written with the origin '' (same-origin paths); QA drags it to other sites
  var bookmarklet = document.getElementById('pp-bookmarklet');
  if (bookmarklet) {
    bookmarklet.href = bookmarklet.getAttribute('href').replace(/\(''\)$/, "('" + window.location.origin + "')");
  }
  var clicks = document.getElementById('qa-clicks');
  if (clicks) clicks.href = '/api/clicks?page=' + encodeURIComponent(window.location.href.split('#')[0]);

  document.addEventListener('click', function (event) {
    var opener = event.target instanceof Element && event.target.closest('[data-consent-open]');
    if (opener && window.PagePulse) window.PagePulse.consent.open();
  });
})();
