<?php
/**
 * The plugin's settings and com_gdpr's into the tag's attributes, PagePulseConfig and the
 * policy; and the tag put first in the head.
 */

use PagePulse\Joomla\Head;
use PagePulse\Joomla\Settings;
use PagePulse\Tests\Pages;
use PHPUnit\Framework\TestCase;

final class SettingsTest extends TestCase
{
    private function settings(array $params = array(), array $site = array('root' => '', 'language' => 'de-DE'), $gdpr = null)
    {
        return new Settings(Pages::policy(), $params, $site, $gdpr);
    }

    public function testDefaultsOfAFreshInstall()
    {
        $settings = $this->settings();
        $this->assertSame('pagepulse.lite.iife.js', $settings->bundle);
        $this->assertTrue($settings->blocking);
        $this->assertSame(array(
            'data-base' => '/',
            'data-lang' => 'de',
            'data-tracker' => 'on',
            'data-consent' => 'on',
            'data-compliance' => 'opt-out',
            'data-revision' => '0',
            'data-selectors' => 'original',
        ), $settings->attributes);
        $this->assertSame(array(), $settings->config, 'nothing that needs an inline script');
        $this->assertSame(Settings::CLIENTS, $settings->remove);
        $this->assertSame(array(), $settings->warnings);
    }

    /**
     * An original client is taken out only while PagePulse's own replacement for it is on: with
     * its consent off com_gdpr's banner stays, with its tracker off the component's own tracker
     * (audit finding 4).
     */
    public function testAClientStaysWhenItsReplacementIsOff()
    {
        $gdpr = 'plugins/system/gdpr/assets/js/';
        $analytics = 'com_jrealtimeanalytics/js/';
        $this->assertSame(array($analytics => Settings::CLIENTS[$analytics]), $this->settings(array('consent' => '0'))->remove);
        $this->assertSame(array($gdpr => Settings::CLIENTS[$gdpr]), $this->settings(array('tracker' => '0'))->remove);
        $this->assertSame(array(), $this->settings(array('consent' => '0', 'tracker' => '0'))->remove);

        $page = '<script src="/plugins/system/gdpr/assets/js/cookieconsent.min.js"></script><script src="/plugins/system/gdpr/assets/js/init.js"></script>'
            . '<script src="/components/com_jrealtimeanalytics/js/stream.js"></script>';
        list($out) = Pages::rewrite($page, '', null, $this->settings(array('consent' => '0', 'tracker' => '0'))->remove);
        $this->assertSame($page, $out);
        list(, $report) = Pages::rewrite($page, '', null, $this->settings(array('consent' => '0'))->remove);
        $this->assertSame(array('removed /components/com_jrealtimeanalytics/js/stream.js'), Pages::summary($report));
    }

    public function testEverySetting()
    {
        $settings = $this->settings(array(
            'bundle' => 'react', 'tracker' => '0', 'blocking' => '0', 'compliance' => 'opt-in', 'privacy_url' => '/datenschutz',
            'cookie_policy_url' => 'https://www.example.org/cookies', 'revision' => '3', 'selectors' => 'stable', 'debug' => '1',
            'base' => 'https://stats.example.org/joomla', 'lang' => 'en', 'replace_clients' => '0',
            'services' => "calendly | 4 | Calendly | calendly.com, assets.calendly.com\nBad Key | 4 | x | x.com\nnocat | 9 | x | x.com\nnohost | 3 | No host | not a host",
            'domains_3' => "stats.example.net\n\nnot a domain", 'domains_4' => 'ads.example.com',
        ), array('root' => '/sub', 'language' => 'de-DE'));
        $this->assertSame('pagepulse.iife.js', $settings->bundle);
        $this->assertFalse($settings->blocking);
        $this->assertSame(array(), $settings->remove);
        $this->assertSame(array(
            'data-base' => 'https://stats.example.org/joomla/',
            'data-lang' => 'en',
            'data-tracker' => 'off',
            'data-consent' => 'on',
            'data-compliance' => 'opt-in',
            'data-privacy-url' => '/datenschutz',
            'data-revision' => '3',
            'data-selectors' => 'stable',
            'data-debug' => '1',
        ), $settings->attributes);
        $this->assertSame('opt-in', $settings->config['complianceType']);
        $this->assertSame('https://www.example.org/cookies', $settings->config['cookiePolicyLink']);
        $this->assertSame(array('calendly' => array('category' => 4, 'name' => 'Calendly', 'hosts' => array('calendly.com', 'assets.calendly.com'), 'cookies' => array())), $settings->config['services']);
        $this->assertSame(array('hotjar.com', 'clarity.ms', 'stats.example.net'), $settings->config['categories'][3]['domains']);
        $this->assertContains('ads.example.com', $settings->config['categories'][4]['domains']);
        $this->assertSame(array(4, 'calendly'), $settings->policy->classify('assets.calendly.com', '/x.js'));
        $this->assertSame(array(3, null), $settings->policy->classify('cdn.stats.example.net', '/'));
        $this->assertSame(3, $settings->policy->revision);
        $this->assertCount(5, $settings->warnings, implode("\n", $settings->warnings));
    }

    public function testLanguageAndBaseFollowTheSite()
    {
        $this->assertSame('en', $this->settings(array(), array('root' => '', 'language' => 'en-GB'))->attributes['data-lang']);
        $this->assertArrayNotHasKey('data-lang', $this->settings(array(), array('root' => '', 'language' => 'fr-FR'))->attributes);
        $this->assertSame('/joomla/', $this->settings(array('base' => 'javascript:alert(1)'), array('root' => '/joomla', 'language' => 'de-DE'))->attributes['data-base']);
        $this->assertSame(array('data-base' => '/', 'data-lang' => 'de', 'data-tracker' => 'on', 'data-consent' => 'off', 'data-selectors' => 'original'), $this->settings(array('consent' => '0'))->attributes);
    }

    public function testComGdprSettingsReachPagePulse()
    {
        $params = array(
            'compliance_type' => 'opt-in', 'revokable' => '0', 'always_reload_after_categories_change' => '1', 'enable_log_cookie_consent' => '0',
            'header' => 'COM_GDPR_SITE_HEADER', 'message' => 'Wir nutzen Cookies.', 'allow_text' => '', 'privacy_policy_link' => 'javascript:void(0)',
            'cookie_policy_link' => '/cookies', 'placeholder_blocked_resources' => '1', 'placeholder_blocked_resources_text' => 'Bitte zustimmen',
            'cookie_category1_enable' => '1', 'cookie_category1_name' => 'Notwendig', 'cookie_category2_enable' => '1',
            'cookie_category3_enable' => '1', 'cookie_category3_checked' => '1', 'cookie_category3_locked' => '1', 'cookie_category4_enable' => '0',
            'domains_category4_list' => "ads.example.com\r\ntracker.example.net\n*.bad",
        );
        $settings = $this->settings(array(), array('root' => '', 'language' => 'de-DE'), array(
            'params' => $params,
            'disabled' => array(2 => true),
            'text' => function ($value) {
                return $value === 'COM_GDPR_SITE_HEADER' ? 'Cookies auf dieser Seite' : $value;
            },
        ));
        $config = $settings->config;
        $this->assertSame('opt-in', $config['complianceType']);
        $this->assertSame('opt-in', $settings->attributes['data-compliance']);
        $this->assertFalse($config['revokable']);
        $this->assertTrue($config['reloadAfterChange']);
        $this->assertFalse($config['logConsent']);
        $this->assertSame('Cookies auf dieser Seite', $config['headerText']);
        $this->assertSame('Wir nutzen Cookies.', $config['messageText']);
        $this->assertArrayNotHasKey('allowText', $config, 'not set on the site: PagePulse keeps its translated text');
        $this->assertArrayNotHasKey('privacyUrl', $config, "com_gdpr's javascript:void(0) is no page");
        $this->assertSame('/cookies', $config['cookiePolicyLink']);
        $this->assertSame('Bitte zustimmen', $config['placeholderText']);
        $this->assertTrue($config['useCategories']);
        $this->assertSame(array('offered' => true, 'name' => 'Notwendig'), $config['categories'][1]);
        $this->assertSame(array('offered' => true, 'locked' => false, 'defaultOn' => false, 'disabled' => true), $config['categories'][2], 'off in the visitor\'s com_gdpr session');
        $this->assertSame(array('offered' => true, 'locked' => true, 'defaultOn' => true, 'disabled' => false), $config['categories'][3]);
        $this->assertSame(false, $config['categories'][4]['offered']);
        $this->assertContains('tracker.example.net', $config['categories'][4]['domains']);
        $this->assertContains('ignored host "*.bad" in com_gdpr domains_category4_list', $settings->warnings);
        // the server decides with the same categories
        $this->assertTrue($settings->policy->categories[3]['locked']);
        $this->assertSame(array(4, null), $settings->policy->classify('ads.example.com', '/'));
        // the plugin's own choice wins over com_gdpr's
        $mine = $this->settings(array('compliance' => 'opt-out', 'privacy_url' => '/privacy'), array('root' => '', 'language' => 'de-DE'), array('params' => $params + array('privacy_policy_link' => '/gdpr-privacy')));
        $this->assertSame('opt-out', $mine->attributes['data-compliance']);
        $this->assertSame('/privacy', $mine->attributes['data-privacy-url']);
    }

    public function testInfoModeHasNoCategories()
    {
        $settings = $this->settings(array(), array('root' => '', 'language' => 'de-DE'), array('params' => array('compliance_type' => 'info', 'cookie_category3_enable' => '1')));
        $this->assertSame('opt-out', $settings->config['complianceType']);
        $this->assertFalse($settings->config['useCategories']);
        $this->assertArrayNotHasKey('categories', $settings->config);
    }

    public function testTheTagComesFirstInTheHead()
    {
        $settings = $this->settings();
        $markup = Head::markup($settings, '/media/plg_system_pagepulse/pagepulse.lite.iife.js?v=1', null);
        $this->assertSame('<script src="/media/plg_system_pagepulse/pagepulse.lite.iife.js?v=1" data-base="/" data-lang="de" data-tracker="on" data-consent="on" data-compliance="opt-out" data-revision="0" data-selectors="original"></script>', $markup);
        // protostar: after its charset meta (the second meta), before <base> and every script and style
        $page = Head::insert(Pages::template('protostar'), $markup);
        $this->assertStringContainsString("<meta charset=\"utf-8\" />" . $markup . "\n\t<base href=", $page);
        // cassiopeia: right after the first meta, the charset
        $page = Head::insert(Pages::template('cassiopeia'), $markup);
        $this->assertStringContainsString("<head>\n    <meta charset=\"utf-8\">" . $markup . "\n", $page);
        // a page whose head starts with a comment and a script: right after <head>
        $page = Head::insert(Pages::template('bootstrap3'), $markup);
        $this->assertStringContainsString('<head>' . $markup . "\n<!-- Google Tag Manager -->", $page);
        // a byte-order mark, comments, no html tag; and no head at all
        $this->assertSame("\xEF\xBB\xBF<!DOCTYPE html><!-- x --><head lang=\"de\">" . $markup . '<title>t</title>', Head::insert("\xEF\xBB\xBF<!DOCTYPE html><!-- x --><head lang=\"de\"><title>t</title>", $markup));
        $this->assertSame('<p>fragment</p>', Head::insert('<p>fragment</p>', $markup));
        $this->assertSame('<!-- <head> --><p>x</p>', Head::insert('<!-- <head> --><p>x</p>', $markup));
        // a quoted > in <html> or <head> does not end the tag (audit finding 7)
        $this->assertSame('<html data-x="a>b"><head data-y=\'c>d\'>' . $markup . '<title>t</title>', Head::insert('<html data-x="a>b"><head data-y=\'c>d\'><title>t</title>', $markup));
        $this->assertNull(Head::at('<?xml version="1.0" encoding="utf-8"?><!DOCTYPE html><html><head><title>t</title>'));
    }

    public function testTheConfigScriptCannotBreakOutAndCarriesTheNonce()
    {
        $settings = $this->settings(array('compliance' => 'opt-in', 'privacy_url' => '/a?x="1"&y=<2>'));
        $settings->config['headerText'] = '</script><script>alert(1)</script> & \u2028';
        $markup = Head::markup($settings, '/media/x.js?a=1&b=2', 'n0nce"');
        $this->assertStringStartsWith('<script nonce="n0nce&quot;">window.PagePulseConfig={', $markup);
        $this->assertStringContainsString('\u003C/script\u003E\u003Cscript\u003Ealert(1)\u003C/script\u003E \u0026', $markup);
        $this->assertSame(2, substr_count($markup, '</script>'));
        $this->assertStringContainsString('<script src="/media/x.js?a=1&amp;b=2" nonce="n0nce&quot;"', $markup);
        $this->assertStringContainsString('data-privacy-url="/a?x=&quot;1&quot;&amp;y=&lt;2&gt;"', $markup);
        preg_match('~PagePulseConfig=(.*);</script>~', $markup, $json);
        $this->assertSame($settings->config, json_decode($json[1], true));
    }
}
