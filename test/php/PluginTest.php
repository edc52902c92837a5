<?php
/**
 * The plugin class as Joomla runs it (onAfterRender), on the Joomla stand-ins of
 * support/Joomla.php, from the staged package (dist/joomla/, the zip's content).
 */

use Joomla\CMS\Component\ComponentHelper;
use Joomla\CMS\Factory;
use Joomla\CMS\Language\Text;
use Joomla\CMS\Plugin\PluginHelper;
use Joomla\CMS\Uri\Uri;
use PagePulse\Tests\Joomla\Application;
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
