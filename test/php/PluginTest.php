<?php
/**
 * The plugin class as Joomla runs it (onAfterRender; on 4/5 also onAfterInitialise and the
 * onBeforeRespond listener it adds; Joomla 3's error path is in Joomla3ErrorTest), on the Joomla
 * stand-ins of support/Joomla.php, from the staged package (dist/joomla/, the zip's content).
 */

use Joomla\CMS\Component\ComponentHelper;
use Joomla\CMS\Event\Application\BeforeRespondEvent;
use Joomla\CMS\Event\GenericEvent;
use Joomla\CMS\Factory;
use Joomla\CMS\Language\Text;
use Joomla\CMS\Plugin\PluginHelper;
use Joomla\CMS\Uri\Uri;
use PagePulse\Tests\Joomla\Application;
use PagePulse\Tests\Joomla\Document;
use PagePulse\Tests\Pages;
use PHPUnit\Framework\TestCase;

require_once __DIR__ . '/support/Joomla.php';
require_once PAGEPULSE_STAGE . '/pagepulse.php';

final class PluginTest extends TestCase
{
    protected function setUp(): void
    {
        PluginHelper::$enabled = array('system/pagepulse' => true);
        ComponentHelper::$components = array();
        Text::$strings = array();
        Uri::$root = '';
        $_SERVER['HTTP_COOKIE'] = '';
    }

    /** Run the plugin on a page; returns what Joomla would send. */
    private function render($body, array $query = array(), array $params = array(), $type = 'html', $app = null)
    {
        Factory::$application = $app ?: new Application($body, $query, $type);
        $subject = null;
        $plugin = new PlgSystemPagepulse($subject, array('name' => 'pagepulse', 'type' => 'system', 'params' => $params));
        $plugin->onAfterRender();
        return Factory::$application->getBody();
    }

    public function testASitePageGetsTheTagFirstAndTheServerHalfOfConsent()
    {
        $page = Pages::withVendors(Pages::template('protostar'));
        $out = $this->render($page);
        $head = substr($out, 0, strpos($out, '</head>'));
        // first in <head> after the charset meta, synchronous, no config script on a fresh site
        $this->assertMatchesRegularExpression('~<head>\s*<meta name="viewport"[^>]*>\s*<meta charset="utf-8" /><script src="/media/plg_system_pagepulse/pagepulse\.lite\.iife\.js\?v=\w+" data-base="/" data-lang="de" data-tracker="on" data-consent="on" data-compliance="opt-out" data-revision="0" data-selectors="original"></script>\s*<base ~', $head);
        $this->assertStringNotContainsString('PagePulseConfig', $out);
        $this->assertDoesNotMatchRegularExpression('~\s(?:async|defer)\b[^>]*pagepulse|pagepulse[^>]*\s(?:async|defer)\b~', $head);
        // the component's client is out, the vendors are held back
        $this->assertStringNotContainsString('com_jrealtimeanalytics/js/stream.js', $out);
        $this->assertStringNotContainsString('com_jrealtimeanalytics/js/heatmap.js', $out);
        $this->assertSame(7, substr_count($out, ' data-category="'));
        $this->assertDoesNotMatchRegularExpression('~<(?:script|iframe)\b[^>]*\ssrc="https://(?:www\.googletagmanager|www\.youtube|player\.vimeo|www\.google)\.com~', $out);
    }

    public function testAConsentedVisitorGetsThePageWithOnlyTheTag()
    {
        $_SERVER['HTTP_COOKIE'] = 'cookieconsent_status=allow; cookieconsent_categories=1.2.3.4';
        $page = Pages::withVendors(Pages::template('cassiopeia'));
        $out = $this->render($page, array(), array('replace_clients' => '0'));
        preg_match('~<script src="/media/plg_system_pagepulse/[^"]+"[^>]*></script>~', $out, $tag);
        $this->assertSame($page, str_replace($tag[0], '', $out));
    }

    public function testPagesThePluginLeavesAlone()
    {
        $page = Pages::withVendors(Pages::template('protostar'));
        $admin = new Application($page);
        $admin->client = 'administrator';
        $this->assertSame($page, $this->render($page, array(), array(), 'html', $admin), 'administrator');
        $this->assertSame($page, $this->render($page, array('format' => 'json'), array(), 'json'), 'json');
        $this->assertSame($page, $this->render($page, array('format' => 'raw'), array(), 'raw'), 'raw');
        $this->assertSame($page, $this->render($page, array('format' => 'feed'), array(), 'feed'), 'feed');
        foreach (array(
            array('tmpl' => 'raw'),
            array('option' => 'com_content', 'view' => 'form', 'layout' => 'edit', 'a_id' => '1'),
            array('option' => 'com_content', 'view' => 'form', 'layout' => 'edit', 'a_id' => '1', 'tmpl' => 'component'),
            array('option' => 'com_content', 'task' => 'article.edit', 'a_id' => '1'),
            array('option' => 'com_config', 'view' => 'modules', 'id' => '16'),
            array('option' => 'com_users', 'view' => 'profile', 'layout' => 'edit'),
        ) as $query) {
            $this->assertSame($page, $this->render($page, $query), json_encode($query));
        }
        // an ordinary page with a layout and a task is a site page
        $this->assertNotSame($page, $this->render($page, array('option' => 'com_content', 'view' => 'article', 'layout' => 'blog', 'task' => 'article.display')));
    }

    /**
     * Print views and modals (tmpl=component, layout=modal) are full pages with the article's
     * embeds: their vendors are held as on any page, but no banner may stand in the way there. Before
     * a choice the page gets no tag (the bundle would show its banner) and keeps its original
     * clients; with a choice it gets the tag without tracker, keep-alive, revoke button or a banner
     * reopened after a decline, and the bundle releases what the choice allows (audit finding 3).
     */
    public function testPrintViewsAndModalsHoldVendorsWithoutABanner()
    {
        $page = str_replace('</head>', "<script src=\"/plugins/system/gdpr/assets/js/cookieconsent.min.js\" defer></script>\n"
            . "<script src=\"/components/com_jrealtimeanalytics/js/stream.js\"></script>\n</head>", Pages::withVendors(Pages::template('protostar')));
        $views = array(
            'print' => array('option' => 'com_content', 'view' => 'article', 'id' => '1', 'tmpl' => 'component', 'print' => '1'),
            'modal' => array('option' => 'com_content', 'view' => 'article', 'id' => '1', 'layout' => 'modal', 'tmpl' => 'component'),
            'modal layout' => array('option' => 'com_contact', 'view' => 'contact', 'id' => '1', 'layout' => 'modal'),
        );
        foreach ($views as $name => $query) {
            // before any choice: held, no tag, the page's own clients as they were
            $_SERVER['HTTP_COOKIE'] = '';
            $out = $this->render($page, $query);
            $this->assertSame(7, substr_count($out, ' data-category="'), $name);
            $this->assertDoesNotMatchRegularExpression('~<(?:script|iframe)\b[^>]*\ssrc="https://(?:www\.googletagmanager|www\.youtube|player\.vimeo|www\.google)\.com~', $out, $name);
            $this->assertStringNotContainsString('/media/plg_system_pagepulse/', $out, $name);
            $this->assertStringNotContainsString('PagePulseConfig', $out, $name);
            $this->assertStringContainsString('cookieconsent.min.js', $out, $name);
            $this->assertStringContainsString('com_jrealtimeanalytics/js/stream.js', $out, $name);

            // a declined visitor: the tag, nothing of the banner, no page view, the rest held
            $_SERVER['HTTP_COOKIE'] = 'cookieconsent_status=deny; cookieconsent_categories=1';
            $out = $this->render($page, $query);
            $this->assertMatchesRegularExpression('~<script>window\.PagePulseConfig=\{"revokable":false,"openAlwaysDeclined":false\};</script><script src="/media/plg_system_pagepulse/pagepulse\.lite\.iife\.js\?v=\w+" data-base="/" data-lang="de" data-tracker="off" data-consent="on" data-keepalive="off" ~', $out, $name);
            $this->assertSame(7, substr_count($out, ' data-category="'), $name);
            $this->assertStringNotContainsString('cookieconsent.min.js', $out, $name);
            // PagePulse's tracker is off here: the component's client is no duplicate to take out
            $this->assertStringContainsString('com_jrealtimeanalytics/js/stream.js', $out, $name);

            // a visitor who allowed YouTube: YouTube as Joomla made it, the rest held
            $_SERVER['HTTP_COOKIE'] = 'cookieconsent_status=dismiss; pagepulse_services=youtube';
            $out = $this->render($page, $query);
            $this->assertStringContainsString('<iframe width="560" height="315" src="https://www.youtube.com/embed/pp-test-01', $out, $name);
            $this->assertSame(6, substr_count($out, ' data-category="'), $name);
            $this->assertStringContainsString('data-tracker="off"', $out, $name);
        }
        // a choice under an older revision does not count: the bundle would ask again
        $_SERVER['HTTP_COOKIE'] = 'cookieconsent_status=allow; cookieconsent_categories=1.2.3.4; cookieconsent_revision=1';
        $out = $this->render($page, $views['print'], array('revision' => '2'));
        $this->assertStringNotContainsString('/media/plg_system_pagepulse/', $out);
        $this->assertSame(7, substr_count($out, ' data-category="'));
        // consent off: the view is left as it was (no banner, no tracker of PagePulse's there)
        $this->assertSame($page, $this->render($page, $views['print'], array('consent' => '0')));
        // server-side blocking off: the tag with a choice (the bundle holds), nothing without one
        $_SERVER['HTTP_COOKIE'] = '';
        $this->assertSame($page, $this->render($page, $views['modal'], array('blocking' => '0')));
        $_SERVER['HTTP_COOKIE'] = 'cookieconsent_status=deny';
        $out = $this->render($page, $views['modal'], array('blocking' => '0'));
        $this->assertStringContainsString('data-keepalive="off"', $out);
        $this->assertStringNotContainsString(' data-category="', $out);
    }

    /**
     * A page the tag cannot go into is not rewritten either: embeds held back without the bundle
     * would never be released (audit finding 7).
     */
    public function testAPageWithoutAPlaceForTheTagStaysAsItIs()
    {
        $page = Pages::withVendors(Pages::template('protostar'));
        $xml = '<?xml version="1.0" encoding="utf-8"?>' . "\n" . $page;
        $this->assertSame($xml, $this->render($xml));
        $this->assertSame('<p>fragment</p>' . $page, $this->render('<p>fragment</p>' . $page));
        // the same page without the prolog: tag and rewriting
        $this->assertStringContainsString(' data-category="', $this->render($page));
    }

    /**
     * The plugin booted as Joomla 4/5 boots it, on the application's dispatcher (its on* methods
     * wrapped as CMSPlugin::registerLegacyListener wraps them), and onAfterInitialise dispatched.
     */
    private function boot(Application $app, array $params = array())
    {
        Factory::$application = $app;
        $plugin = new PlgSystemPagepulse($app->getDispatcher(), array('name' => 'pagepulse', 'type' => 'system', 'params' => $params));
        $app->getDispatcher()->dispatch('onAfterInitialise', new GenericEvent('onAfterInitialise'));
        return $plugin;
    }

    /**
     * CMSApplication::execute's onBeforeRespond: 4.x `$this->getDispatcher()->dispatch('onBeforeRespond')`
     * (no event object: a plain Joomla\Event\Event), 5.x `new BeforeRespondEvent('onBeforeRespond', ['subject' => $this])`.
     */
    private static function respond(Application $app, $joomla)
    {
        if ($joomla === 5) {
            $app->getDispatcher()->dispatch('onBeforeRespond', new BeforeRespondEvent('onBeforeRespond', array('subject' => $app)));
        } else {
            $app->getDispatcher()->dispatch('onBeforeRespond');
        }
    }

    /**
     * Joomla 4/5's error path (CMSApplication::execute): the exception is caught, ExceptionHandler
     * renders the template's error.php through the error renderer, gives the application that
     * renderer's document (type `error`) and sets the page as the body; onAfterRender never fires,
     * onBeforeRespond does. What a visitor gets there is rewritten as any site page is: the tag
     * first, the vendors held, the component's client out (PHP audit finding 9), on 4.x's plain
     * event and 5.x's BeforeRespondEvent alike.
     */
    public function testErrorPagesGetTheTagAndTheBlocking()
    {
        $page = Pages::template('cassiopeia-error');
        $query = array('option' => 'com_content', 'view' => 'article', 'id' => '999');
        $app = new Application($page, $query, 'error');
        $this->boot($app);
        self::respond($app, 4);
        $out = $app->getBody();
        $app = new Application($page, $query, 'error');
        $this->boot($app);
        self::respond($app, 5);
        $this->assertSame($out, $app->getBody(), 'Joomla 5');
        $this->assertMatchesRegularExpression('~<head>\s*<meta charset="utf-8"><script src="/media/plg_system_pagepulse/pagepulse\.lite\.iife\.js\?v=\w+" data-base="/" data-lang="de" data-tracker="on" data-consent="on" ~', $out);
        $this->assertSame(1, substr_count($out, '/media/plg_system_pagepulse/'));
        // GTM's snippet, the Maps and YouTube frames held; the preconnect hint's address moved aside; the component's client out
        $this->assertMatchesRegularExpression('~<script type="text/plain" data-category="3" data-service="google-analytics">\(function\(w,d,s,l,i\)~', $out);
        $this->assertDoesNotMatchRegularExpression('~<(?:script|iframe)\b[^>]*\ssrc="https://(?:www\.googletagmanager|www\.youtube|www\.google)\.com~', preg_replace('~<noscript>.*?</noscript>~s', '', $out));
        $this->assertStringContainsString('data-src="https://www.youtube.com/embed/pp-error-01"', $out);
        $this->assertStringContainsString('data-pagepulse-href="https://www.googletagmanager.com"', $out);
        $this->assertStringNotContainsString('com_jrealtimeanalytics/js/stream.js', $out);
        // GTM's <noscript> frame is text while scripts run: left as it was
        $this->assertStringContainsString('<noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-PPERROR"', $out);
        // exactly the rewrite any page gets, plus the tag
        list($rewritten) = Pages::rewrite($page);
        $this->assertSame($rewritten, preg_replace('~<script src="/media/plg_system_pagepulse/[^"]+"[^>]*></script>~', '', $out));

        // a visitor who allowed everything: the error page as Joomla made it, and the tag
        $_SERVER['HTTP_COOKIE'] = 'cookieconsent_status=allow; cookieconsent_categories=1.2.3.4';
        $app = new Application($page, $query, 'error');
        $this->boot($app, array('replace_clients' => '0'));
        self::respond($app, 5);
        $out = $app->getBody();
        preg_match('~<script src="/media/plg_system_pagepulse/[^"]+"[^>]*></script>~', $out, $tag);
        $this->assertSame($page, str_replace($tag[0], '', $out));

        // an error page in a modal's frame (tmpl=component): held, no banner before a choice
        $_SERVER['HTTP_COOKIE'] = '';
        $app = new Application($page, $query + array('tmpl' => 'component'), 'error');
        $this->boot($app);
        self::respond($app, 4);
        $this->assertStringNotContainsString('/media/plg_system_pagepulse/', $app->getBody());
        $this->assertStringContainsString('data-src="https://www.youtube.com/embed/pp-error-01"', $app->getBody());

        // an error page reached from an edit link is the template's error page, not the edit form
        $app = new Application($page, array('option' => 'com_content', 'view' => 'form', 'layout' => 'edit', 'a_id' => '999'), 'error');
        $this->boot($app);
        self::respond($app, 5);
        $this->assertStringContainsString('data-src="https://www.youtube.com/embed/pp-error-01"', $app->getBody());

        // server-side blocking off: the tag only
        $app = new Application($page, $query, 'error');
        $this->boot($app, array('blocking' => '0'));
        self::respond($app, 4);
        $this->assertStringContainsString('/media/plg_system_pagepulse/', $app->getBody());
        $this->assertStringNotContainsString(' data-category="', $app->getBody());
    }

    /**
     * onBeforeRespond runs before every answer: only the HTML error page of a site request is
     * touched there. Ordinary pages (done in onAfterRender, and maybe gzip-compressed by now),
     * JSON/feed error answers, `format=raw` requests (whose errors Joomla renders with the HTML
     * renderer: a script asked, not a visitor), `tmpl=raw` and the administrator are left alone.
     */
    public function testErrorAnswersThatAreNoSitePageAreLeftAlone()
    {
        $page = Pages::template('cassiopeia-error');
        $json = '{"errors":[{"title":"Seite nicht gefunden","code":404}]}';
        $cases = array(
            'html page' => new Application(Pages::withVendors(Pages::template('cassiopeia')), array(), 'html'),
            'json' => new Application($json, array('format' => 'json'), 'json'),
            'json by document' => new Application($json, array(), 'json'),
            'feed' => new Application('<?xml version="1.0" encoding="utf-8"?><rss version="2.0"></rss>', array('format' => 'feed'), 'feed'),
            'raw' => new Application($page, array('option' => 'com_ajax', 'format' => 'raw'), 'error'),
            'tmpl=raw' => new Application($page, array('tmpl' => 'raw'), 'error'),
            'administrator' => new Application($page, array('option' => 'com_content'), 'error'),
        );
        $cases['administrator']->client = 'administrator';
        foreach ($cases as $name => $app) {
            $before = $app->getBody();
            $this->boot($app);
            self::respond($app, 4);
            self::respond($app, 5);
            $this->assertSame($before, $app->getBody(), $name);
        }
        // an error inside leaves the error page as Joomla made it
        $app = new class($page, array(), 'error') extends Application {
            public function getLanguage()
            {
                throw new RuntimeException('no language');
            }
        };
        $this->boot($app);
        self::respond($app, 4);
        $this->assertSame($page, $app->getBody());
    }

    /** One request, one rewrite: the page onAfterRender made is not rewritten again before the answer. */
    public function testAPageIsNeverRewrittenTwice()
    {
        $render = function (Application $app) {
            $app->getDispatcher()->dispatch('onAfterRender', new GenericEvent('onAfterRender'));
        };
        // an ordinary page: onAfterRender, then onBeforeRespond changes nothing
        $app = new Application(Pages::withVendors(Pages::template('cassiopeia')));
        $this->boot($app);
        $render($app);
        $once = $app->getBody();
        $this->assertSame(1, substr_count($once, '/media/plg_system_pagepulse/'));
        self::respond($app, 4);
        $this->assertSame($once, $app->getBody());
        // the same body under an error document (a plugin swapped the document, not the page): left
        $app->loadDocument(new Document('error'));
        self::respond($app, 5);
        $this->assertSame($once, $app->getBody());

        // an exception after onAfterRender (another plugin's onAfterRender, onAfterCompress): Joomla
        // replaces the body with the error page, which is rewritten, once
        $app = new Application(Pages::withVendors(Pages::template('cassiopeia')));
        $this->boot($app);
        $render($app);
        $app->loadDocument(new Document('error'));
        $app->setBody(Pages::template('cassiopeia-error'));
        self::respond($app, 4);
        $error = $app->getBody();
        $this->assertSame(1, substr_count($error, '/media/plg_system_pagepulse/'));
        $this->assertStringContainsString('data-src="https://www.youtube.com/embed/pp-error-01"', $error);
        self::respond($app, 4);
        $this->assertSame($error, $app->getBody());

        // onAfterInitialise twice (a plugin that triggers it again): one listener
        $app = new Application(Pages::template('cassiopeia-error'), array(), 'error');
        $this->boot($app);
        $app->getDispatcher()->dispatch('onAfterInitialise', new GenericEvent('onAfterInitialise'));
        $this->assertCount(1, $app->getDispatcher()->listeners['onBeforeRespond']);

        // Joomla 3 never calls onAfterRender on its error page; should it, the page is not an HTML document there
        $page = Pages::template('cassiopeia-error');
        $app = new Application($page, array(), 'error');
        $this->boot($app);
        $render($app);
        $this->assertSame($page, $app->getBody());
    }

    /**
     * An application without joomla/event's dispatcher that is not Joomla 3 by its Version (Joomla
     * 3's own hooks: Joomla3ErrorTest): no listener, nothing breaks, ordinary pages are as before.
     */
    public function testWithoutJoomlaEventsDispatcherNothingIsRegistered()
    {
        $app = new class(Pages::withVendors(Pages::template('protostar'))) extends Application {
            public function getDispatcher()
            {
                return new \stdClass();
            }
        };
        Factory::$application = $app;
        $subject = null;
        $plugin = new PlgSystemPagepulse($subject, array('params' => array()));
        $plugin->onAfterInitialise();
        $plugin->onAfterRender();
        $this->assertStringContainsString('/media/plg_system_pagepulse/', $app->getBody());
    }

    public function testComGdprIsReplacedAndItsSettingsReachTheBundle()
    {
        ComponentHelper::$components['com_gdpr'] = array(
            'compliance_type' => 'opt-in', 'header' => 'COM_GDPR_HEADER', 'cookie_category3_enable' => '1', 'cookie_category4_enable' => '1',
        );
        PluginHelper::$enabled['system/gdpr'] = true;
        Text::$strings['COM_GDPR_HEADER'] = 'Diese Seite nutzt Cookies';
        $page = str_replace('</head>', "\t<link href=\"/plugins/system/gdpr/assets/css/cookieconsent.min.css\" rel=\"stylesheet\" />\n"
            . "\t<script src=\"/plugins/system/gdpr/assets/js/jquery.fancybox.min.js\" defer></script>\n"
            . "\t<script src=\"/plugins/system/gdpr/assets/js/cookieconsent.min.js\" defer></script>\n"
            . "\t<script src=\"/plugins/system/gdpr/assets/js/init.js\" defer></script>\n"
            . "\t<script>var gdprConfigurationOptions = { complianceType: 'opt-in' };</script>\n</head>", Pages::template('protostar'));
        $app = new Application($page);
        $app->getSession()->data['gdpr_cookie_category_disabled_4'] = 1;
        $app->set('csp_nonce', 'r4nd0m');
        $out = $this->render($page, array(), array(), 'html', $app);
        $this->assertStringNotContainsString('cookieconsent.min.js', $out);
        $this->assertStringNotContainsString('/init.js', $out);
        // its other files and its globals stay (its server reads its own cookies as before)
        $this->assertStringContainsString('jquery.fancybox.min.js', $out);
        $this->assertStringContainsString('var gdprConfigurationOptions', $out);
        $this->assertMatchesRegularExpression('~<meta charset="utf-8" /><script nonce="r4nd0m">window\.PagePulseConfig=(\{.*?\});</script><script src="[^"]+" nonce="r4nd0m" [^>]*data-compliance="opt-in"~', $out);
        preg_match('~PagePulseConfig=(\{.*?\});</script>~', $out, $json);
        $config = json_decode($json[1], true);
        $this->assertSame('opt-in', $config['complianceType']);
        $this->assertSame('Diese Seite nutzt Cookies', $config['headerText']);
        $this->assertSame(array('offered' => true, 'locked' => false, 'defaultOn' => false, 'disabled' => true), $config['categories'][4]);
        $this->assertContains('com_gdpr', $app->getLanguage()->loaded);
        // switched off in com_gdpr: nothing of it is read
        ComponentHelper::$components['com_gdpr']['enable_cookie_consent'] = '0';
        $this->assertStringNotContainsString('PagePulseConfig', $this->render(Pages::template('protostar')));
    }

    public function testAnErrorLeavesThePageAsJoomlaMadeIt()
    {
        $page = Pages::template('protostar');
        $app = new class($page) extends Application {
            public function getDocument()
            {
                throw new RuntimeException('no document');
            }
        };
        $this->assertSame($page, $this->render($page, array(), array(), 'html', $app));
    }

    /** The page cache key without its last part (the hash of the printed tag and config). */
    private static function consentKey($key)
    {
        return substr($key, 0, strrpos($key, ':'));
    }

    public function testThePageCacheKeepsOneCopyPerConsent()
    {
        $key = function ($cookies, array $params = array()) {
            $_SERVER['HTTP_COOKIE'] = $cookies;
            Factory::$application = new Application('');
            $subject = null;
            $plugin = new PlgSystemPagepulse($subject, array('params' => $params));
            return self::consentKey($plugin->onPageCacheGetKey());
        };
        $first = $key('');
        $this->assertSame('pagepulse:1100:', $first);
        $this->assertSame($first, $key('cookieconsent_status=dismiss'), 'the same decision, the same copy');
        $this->assertSame('pagepulse:1111:', $key('cookieconsent_status=allow; cookieconsent_categories=1.2.3.4'));
        $this->assertSame('pagepulse:1100:vimeo.youtube', $key('pagepulse_services=youtube.vimeo'));
        $this->assertSame('pagepulse:1000:', $key('', array('compliance' => 'opt-in')));
        $this->assertSame('pagepulse:off', $key('', array('blocking' => '0')));
        // a print view or a modal: one copy with the tag (a choice counts), one without
        $key = function ($cookies, array $query) {
            $_SERVER['HTTP_COOKIE'] = $cookies;
            Factory::$application = new Application('', $query);
            $subject = null;
            $plugin = new PlgSystemPagepulse($subject, array('params' => array()));
            return self::consentKey($plugin->onPageCacheGetKey());
        };
        $print = array('tmpl' => 'component', 'print' => '1');
        $this->assertSame('pagepulse:1100::untagged', $key('', $print));
        $this->assertSame('pagepulse:1100::tag', $key('cookieconsent_status=dismiss', $print));
        $this->assertSame('pagepulse:1100::tag', $key('cookieconsent_status=dismiss', array('layout' => 'modal')));
    }

    /**
     * com_gdpr's session switches change the printed config (categories[N].disabled), so they are
     * part of the page cache key: a copy made for one guest never reaches another guest with other
     * switches (audit finding 11).
     */
    public function testThePageCacheKeysComGdprSessionSwitches()
    {
        ComponentHelper::$components['com_gdpr'] = array(
            'compliance_type' => 'opt-out', 'cookie_category2_enable' => '1', 'cookie_category3_enable' => '1', 'cookie_category3_checked' => '1',
        );
        PluginHelper::$enabled['system/gdpr'] = true;
        $_SERVER['HTTP_COOKIE'] = 'cookieconsent_status=allow';
        $keys = array();
        $pages = array();
        foreach (array('none' => array(), 'preferences off' => array('gdpr_cookie_category_disabled_2' => 1), 'statistics off' => array('gdpr_cookie_category_disabled_3' => 1)) as $name => $session) {
            foreach (array(array(), array('blocking' => '0')) as $params) {
                $app = new Application(Pages::withVendors(Pages::template('protostar')));
                $app->getSession()->data = $session;
                Factory::$application = $app;
                $subject = null;
                $plugin = new PlgSystemPagepulse($subject, array('params' => $params));
                $keys[$name . json_encode($params)] = $plugin->onPageCacheGetKey();
                $plugin->onAfterRender();
                $pages[$name . json_encode($params)] = $app->getBody();
            }
        }
        // the same cookies, but six different pages: six keys
        $this->assertCount(6, array_unique($pages));
        $this->assertCount(6, array_unique($keys), implode("\n", $keys));
        $this->assertSame(array('pagepulse:1000:', 'pagepulse:off'), array_values(array_unique(array_map(array(self::class, 'consentKey'), $keys))));
        // and the same switches give the same key
        $app = new Application('');
        $app->getSession()->data = array('gdpr_cookie_category_disabled_2' => 1);
        Factory::$application = $app;
        $subject = null;
        $plugin = new PlgSystemPagepulse($subject, array('params' => array()));
        $this->assertSame($keys['preferences off[]'], $plugin->onPageCacheGetKey());
    }

    public function testASiteInASubfolder()
    {
        Uri::$root = '/joomla';
        $out = $this->render(Pages::template('cassiopeia'), array(), array('bundle' => 'react'));
        $file = JPATH_ROOT . '/media/plg_system_pagepulse/pagepulse.iife.js';
        $version = substr(md5(filemtime($file) . filesize($file)), 0, 8);
        $this->assertStringContainsString('<script src="/joomla/media/plg_system_pagepulse/pagepulse.iife.js?v=' . $version . '"', $out);
        $this->assertStringContainsString('data-base="/joomla/"', $out);
    }
}
