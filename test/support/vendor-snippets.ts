/**
 * The vendors' snippets as their install pages hand them out to a site owner, unchanged but for
 * the account IDs: what a consent test must hold back without the page being rewritten. Their
 * hosts are answered by the vendor proxy (test/support/vendor-proxy.ts); on the test server's
 * `http://` pages a protocol-relative URL (Matomo's) goes out as plain HTTP.
 */

/** Google tag (gtag.js), for the head. */
export const GTAG = `<!-- Google tag (gtag.js) -->
<script async src="https://www.googletagmanager.com/gtag/js?id=G-TEST123"></script>
<script>
  window.dataLayer = window.dataLayer || [];
  function gtag(){dataLayer.push(arguments);}
  gtag('js', new Date());

  gtag('config', 'G-TEST123');
</script>`;

/** Google Tag Manager, the head part (inserts gtm.js). */
export const GTM = `<!-- Google Tag Manager -->
<script>(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':
new Date().getTime(),event:'gtm.js'});var f=d.getElementsByTagName(s)[0],
j=d.createElement(s),dl=l!='dataLayer'?'&l='+l:'';j.async=true;j.src=
'https://www.googletagmanager.com/gtm.js?id='+i+dl;f.parentNode.insertBefore(j,f);
})(window,document,'script','dataLayer','GTM-XXXX');</script>
<!-- End Google Tag Manager -->`;

/** Google Tag Manager, the part right after `<body>` (only for pages without JavaScript). */
export const GTM_NOSCRIPT = `<!-- Google Tag Manager (noscript) -->
<noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-XXXX"
height="0" width="0" style="display:none;visibility:hidden"></iframe></noscript>
<!-- End Google Tag Manager (noscript) -->`;

/** Meta pixel (inserts connect.facebook.net/en_US/fbevents.js, which sets `_fbp`). */
export const META_PIXEL = `<!-- Meta Pixel Code -->
<script>
!function(f,b,e,v,n,t,s)
{if(f.fbq)return;n=f.fbq=function(){n.callMethod?
n.callMethod.apply(n,arguments):n.queue.push(arguments)};
if(!f._fbq)f._fbq=n;n.push=n;n.loaded=!0;n.version='2.0';
n.queue=[];t=b.createElement(e);t.async=!0;
t.src=v;s=b.getElementsByTagName(e)[0];
s.parentNode.insertBefore(t,s)}(window, document,'script',
'https://connect.facebook.net/en_US/fbevents.js');
fbq('init', '1234567890');
fbq('track', 'PageView');
</script>
<noscript><img height="1" width="1" style="display:none"
src="https://www.facebook.com/tr?id=1234567890&ev=PageView&noscript=1"
/></noscript>
<!-- End Meta Pixel Code -->`;

/** Matomo's tracking code (`_paq`; inserts //matomo.example.com/matomo.js). */
export const MATOMO = `<!-- Matomo -->
<script>
  var _paq = window._paq = window._paq || [];
  /* tracker methods like "setCustomDimension" should be called before "trackPageView" */
  _paq.push(['trackPageView']);
  _paq.push(['enableLinkTracking']);
  (function() {
    var u="//matomo.example.com/";
    _paq.push(['setTrackerUrl', u+'matomo.php']);
    _paq.push(['setSiteId', '1']);
    var d=document, g=d.createElement('script'), s=d.getElementsByTagName('script')[0];
    g.async=true; g.src=u+'matomo.js'; s.parentNode.insertBefore(g,s);
  })();
</script>
<!-- End Matomo Code -->`;

/** YouTube's "Share > Embed" code. */
export const YOUTUBE = `<iframe width="560" height="315" src="https://www.youtube.com/embed/abc123?si=TEST" title="YouTube video player" frameborder="0" allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share" referrerpolicy="strict-origin-when-cross-origin" allowfullscreen></iframe>`;

/** The same with "privacy-enhanced mode" on. */
export const YOUTUBE_NOCOOKIE = `<iframe width="560" height="315" src="https://www.youtube-nocookie.com/embed/def456?si=TEST" title="YouTube video player" frameborder="0" allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share" referrerpolicy="strict-origin-when-cross-origin" allowfullscreen></iframe>`;

/** Vimeo's embed code: the iframe and its player API script. */
export const VIMEO = `<div style="padding:56.25% 0 0 0;position:relative;"><iframe src="https://player.vimeo.com/video/76979871?h=8272103f6e&amp;badge=0&amp;autopause=0&amp;player_id=0&amp;app_id=58479" frameborder="0" allow="autoplay; fullscreen; picture-in-picture; clipboard-write; encrypted-media" style="position:absolute;top:0;left:0;width:100%;height:100%;" title="Test film"></iframe></div><script src="https://player.vimeo.com/api/player.js"></script>`;

/**
 * Google Maps' "Share > Embed a map". Note `loading="lazy"`: an engine loads it only near the
 * viewport, so a test page keeps it in view.
 */
export const GOOGLE_MAPS = `<iframe src="https://www.google.com/maps/embed?pb=!1m18!1m12!1m3!1d2427.6!2d13.3777!3d52.5163!2m3!1f0!2f0!3f0!3m2!1i1024!2i768!4f13.1!3m3!1m2!1s0x0%3A0x0!2zQnJhbmRlbmJ1cmdlciBUb3I!5e0!3m2!1sde!2sde!4v1700000000000!5m2!1sde!2sde" width="600" height="450" style="border:0;" allowfullscreen="" loading="lazy" referrerpolicy="no-referrer-when-downgrade"></iframe>`;

/** The older Google Maps embed on a country host, still pasted in many CMS pages. */
export const GOOGLE_MAPS_CLASSIC = `<iframe width="425" height="350" frameborder="0" scrolling="no" marginheight="0" marginwidth="0" src="https://maps.google.de/maps?f=q&amp;source=s_q&amp;hl=de&amp;geocode=&amp;q=Brandenburger+Tor,+Berlin&amp;ie=UTF8&amp;z=14&amp;output=embed"></iframe>`;
