<?php
/**
 * Joomla 3's error page (a 404, a 403, anything thrown): rendered by ExceptionHandler::render,
 * echoed and ended with exit, no plugin event between. The plugin rewrites it at PHP's shutdown
 * (pagepulse.php, watchJoomla3Errors). Each case is one request in a PHP process of its own
 * (support/joomla3-error.php on the 3.x stand-ins of support/Joomla3.php, with the staged
 * package), since only a process that really exits runs PHP's shutdown and sends the output
 * buffers on; the assertions are on what that process printed, which is what the visitor gets.
 */

use PagePulse\Tests\Pages;
use PHPUnit\Framework\TestCase;

final class Joomla3ErrorTest extends TestCase
{
    /** What the request printed; it must end with status 0 and nothing on stderr. */
    private static function request(array $case)
    {
        $process = proc_open(
            array(PHP_BINARY, '-d', 'display_errors=stderr', '-d', 'error_reporting=-1', __DIR__ . '/support/joomla3-error.php', json_encode($case)),
            array(1 => array('pipe', 'w'), 2 => array('pipe', 'w')),
            $pipes
        );
        self::assertIsResource($process);
        $out = stream_get_contents($pipes[1]);
        $errors = stream_get_contents($pipes[2]);
        fclose($pipes[1]);
        fclose($pipes[2]);
        $status = proc_close($process);
        self::assertSame('', $errors, json_encode($case));
        self::assertSame(0, $status, json_encode($case));
        return $out;
    }

    /** The error page as Joomla made it. */
    private static function page()
    {
        return Pages::template('protostar-error');
    }

    /** The page without the tag: the rewrite any page gets, checked by Pages::rewrite. */
    private function assertRewritten($out, $label)
    {
        $this->assertSame(1, substr_count($out, '/media/plg_system_pagepulse/'), $label);
        $this->assertMatchesRegularExpression('~<meta charset="utf-8" /><script src="/media/plg_system_pagepulse/pagepulse\.lite\.iife\.js\?v=\w+" data-base="/" data-lang="de" data-tracker="on" data-consent="on" ~', $out, $label);
        list($rewritten) = Pages::rewrite(self::page());
        $this->assertSame($rewritten, preg_replace('~<script src="/media/plg_system_pagepulse/[^"]+"[^>]*></script>~', '', $out), $label);
    }

    /**
     * The audit's finding on 3.x (PHP audit 9): the 404 page went out as error.php made it, GTM's
     * snippet, the Maps and YouTube frames and the component's client included. Now it gets the
     * tag first and the vendors held, on the two ways Joomla 3 renders it (an uncaught exception,
     * JError::raiseError, which com_content's "article not found" takes), on 3.9's and 3.10's steps.
     */
    public function testTheErrorPageGetsTheTagAndTheBlocking()
    {
        $cases = array(
            '3.10, thrown' => array('minor' => 10),
            '3.9, thrown' => array('minor' => 9),
            // the component's buffer (ComponentHelper::executeComponent), still open and empty
            '3.10, JError' => array('minor' => 10, 'via' => 'jerror', 'buffers' => array(array('', 0))),
            '3.9, JError' => array('minor' => 9, 'via' => 'jerror', 'buffers' => array(array('', 0))),
            // PHP's output_buffering in chunks smaller than the page: 3.9 would let the page out
            // piecemeal; the plugin's empty buffer on top holds it whole
            '3.9, thrown, output_buffering=1024' => array('minor' => 9, 'buffers' => array(array('', 1024))),
            '3.10, thrown, output_buffering=1024' => array('minor' => 10, 'buffers' => array(array('', 1024))),
            // the core System - Redirect plugin's handler in front of Joomla's (a 404 it has no redirect for)
            '3.9, System - Redirect, output_buffering=1024' => array('minor' => 9, 'handler' => 'redirect', 'buffers' => array(array('', 1024))),
            '3.10, System - Redirect' => array('minor' => 10, 'handler' => 'redirect'),
            // an error page reached from an edit link is the template's error page, not the form
            '3.10, edit link' => array('query' => array('option' => 'com_content', 'view' => 'form', 'layout' => 'edit', 'a_id' => '999')),
        );
        foreach ($cases as $label => $case) {
            $out = self::request($case);
            $this->assertRewritten($out, $label);
            $this->assertStringContainsString('<script type="text/plain" data-category="3" data-service="google-analytics">(function(w,d,s,l,i)', $out, $label);
            $this->assertStringContainsString('data-src="https://www.youtube.com/embed/pp-j3-error-01"', $out, $label);
            $this->assertDoesNotMatchRegularExpression('~<(?:script|iframe)\b[^>]*\ssrc="https://(?:www\.googletagmanager|www\.youtube|www\.google)\.com~', preg_replace('~<noscript>.*?</noscript>~s', '', $out), $label);
            $this->assertStringNotContainsString('com_jrealtimeanalytics/js/stream.js', $out, $label);
        }

        // a visitor who allowed everything: the page as Joomla made it, and the tag
        $out = self::request(array('cookie' => 'cookieconsent_status=allow; cookieconsent_categories=1.2.3.4', 'params' => array('replace_clients' => '0')));
        preg_match('~<script src="/media/plg_system_pagepulse/[^"]+"[^>]*></script>~', $out, $tag);
        $this->assertSame(self::page(), str_replace($tag[0], '', $out));

        // in a modal's frame (tmpl=component), before any choice: held, no tag (no banner there)
        $out = self::request(array('minor' => 9, 'query' => array('option' => 'com_content', 'view' => 'article', 'id' => '999', 'tmpl' => 'component')));
        $this->assertStringNotContainsString('/media/plg_system_pagepulse/', $out);
        $this->assertStringContainsString('data-src="https://www.youtube.com/embed/pp-j3-error-01"', $out);

        // an exception after onAfterRender (another plugin's): the new body, the error page, rewritten once
        $this->assertRewritten(self::request(array('rendered' => true)), 'after onAfterRender');
    }

    /**
     * What is not a visitor's HTML error page, or not surely the page Joomla echoed, goes out
     * byte for byte as Joomla sends it.
     */
    public function testWhatIsNotTheErrorPageOfASitePageIsLeftAlone()
    {
        $page = self::page();
        $cases = array(
            // Joomla 3 answers these with its HTML error page too: a script asked, not a visitor
            'format=json' => array('query' => array('option' => 'com_ajax', 'format' => 'json')),
            'format=raw' => array('minor' => 9, 'query' => array('option' => 'com_ajax', 'format' => 'raw')),
            'tmpl=raw' => array('query' => array('tmpl' => 'raw')),
            'administrator' => array('client' => 'administrator'),
            // a length or an encoding set for the body
            'Content-Length' => array('headers' => array('Content-Length: 3371')),
            'Content-Encoding' => array('minor' => 9, 'headers' => array('Content-Encoding: gzip')),
            // anything thrown inside the plugin
            'broken language' => array('brokenLanguage' => true),
            // 3.9 ends the top buffer when it has content (here a template's half page) and echoes
            // below it, here straight out: the plugin adds no buffer of its own over content (that
            // would keep the half page), and nothing holds the page at shutdown
            '3.9, half a page in the top buffer' => array('minor' => 9, 'buffers' => array(array('<p>half a page', 0))),
            // JError's path after onAfterRender: the plugin cannot tell it from an ordinary page there
            'JError after onAfterRender' => array('via' => 'jerror', 'rendered' => true),
        );
        foreach ($cases as $label => $case) {
            $this->assertSame($page, self::request($case), $label);
        }
        // another extension's exception handler: its own page, untouched
        $this->assertSame("<p>An extension's own error page: Seite nicht gefunden</p>", self::request(array('handler' => 'other')));
    }

    /**
     * An ordinary page on Joomla 3 is rewritten once, in onAfterRender; the shutdown hook leaves
     * it even with the whole page still in a buffer and the error document's class loaded.
     */
    public function testAnOrdinaryPageIsRewrittenOnce()
    {
        $out = self::request(array('via' => 'none', 'rendered' => true, 'errorDocument' => true, 'buffers' => array(array('', 0))));
        $this->assertSame(1, substr_count($out, '/media/plg_system_pagepulse/'));
        $this->assertStringContainsString('<meta charset="utf-8" /><script src="/media/plg_system_pagepulse/', $out);
        $this->assertStringNotContainsString('Seite nicht gefunden', $out);
    }
}
