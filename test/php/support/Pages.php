<?php
/**
 * Shared by the PHP tests: the built table, consent from a Cookie header, the template pages and
 * a rewrite that also checks its own report (every edit is one whole start tag, or one whole
 * script element taken out, and every byte outside the edits is the input's).
 */

namespace PagePulse\Tests;

use PagePulse\Joomla\Consent;
use PagePulse\Joomla\Policy;
use PagePulse\Joomla\Rewriter;
use PagePulse\Joomla\Settings;
use PHPUnit\Framework\Assert;

final class Pages
{
    /** The built-in table as the build generated it. */
    public static function policy()
    {
        return Policy::fromFile(PAGEPULSE_STAGE . '/services.json');
    }

    /** A template page by name: protostar, protostar-error, cassiopeia, cassiopeia-error, bootstrap3, uikit. */
    public static function template($name)
    {
        $files = array(
            'protostar' => PAGEPULSE_FIXTURES . '/protostar-home.html',
            'protostar-error' => PAGEPULSE_FIXTURES . '/protostar-error.html',
            'cassiopeia' => PAGEPULSE_FIXTURES . '/cassiopeia-home.html',
            'cassiopeia-error' => PAGEPULSE_FIXTURES . '/cassiopeia-error.html',
            'bootstrap3' => PAGEPULSE_FIXTURES . '/bootstrap3-template.html',
            'uikit' => PAGEPULSE_ROOT . '/node_modules/uikit/tests/video.html',
        );
        $html = file_get_contents($files[$name]);
        Assert::assertIsString($html, $name);
        return $html;
    }

    /** The vendors' snippets. */
    public static function vendors()
    {
        return file_get_contents(PAGEPULSE_FIXTURES . '/vendor-snippets.html');
    }

    /** A page with the vendors' snippets pasted before `</body>`. */
    public static function withVendors($html)
    {
        $at = strripos($html, '</body>');
        Assert::assertNotFalse($at);
        return substr($html, 0, $at) . self::vendors() . substr($html, $at);
    }

    /**
     * Rewrite for a visitor with these cookies; returns [output, report], after checking the
     * report against input and output.
     *
     * @return array{0: string, 1: array}
     */
    public static function rewrite($html, $cookies = '', $policy = null, $remove = null)
    {
        $policy = $policy ?: self::policy();
        $rewriter = new Rewriter($policy, Consent::fromCookieHeader($policy, $cookies), $remove === null ? Settings::CLIENTS : $remove);
        $out = $rewriter->rewrite($html);
        self::checkReport($html, $out, $rewriter->report);
        return array($out, $rewriter->report);
    }

    /** The edits are whole start tags (or whole scripts taken out), and nothing else changed. */
    public static function checkReport($html, $out, array $report)
    {
        $rebuilt = '';
        $last = 0;
        foreach ($report as $entry) {
            if ($entry['action'] === 'failed') {
                continue;
            }
            Assert::assertGreaterThanOrEqual($last, $entry['start'], 'edits in page order, not overlapping');
            $original = substr($html, $entry['start'], $entry['end'] - $entry['start']);
            if ($entry['action'] === 'held') {
                // after a PCRE failure: one attribute put first, which the browser keeps over the tag's own
                Assert::assertSame('', $original);
                Assert::assertContains($entry['markup'], array(' type=text/plain', ' src=about:blank', ' data=about:blank', ' rel=pagepulse-held'));
            } elseif ($entry['action'] === 'removed') {
                Assert::assertMatchesRegularExpression('~^<script\b[^>]*>.*</script\s*>$~is', $original);
                Assert::assertSame('', $entry['markup']);
            } else {
                $name = $entry['action'] === 'inline' ? 'script' : $entry['action'];
                // a quoted value may hold `<` and `>` (a srcdoc): only the tag's own `>` ends it
                $inside = '(?:"[^"]*"|\'[^\']*\'|[^"\'<>])*?';
                Assert::assertMatchesRegularExpression('~^<' . $name . '\b' . $inside . '>$~is', $original, 'one whole start tag');
                Assert::assertMatchesRegularExpression('~^<' . $name . '\b' . $inside . '\sdata-category="[234]"' . $inside . '>$~is', $entry['markup']);
            }
            $rebuilt .= substr($html, $last, $entry['start'] - $last) . $entry['markup'];
            $last = $entry['end'];
        }
        $rebuilt .= substr($html, $last);
        Assert::assertSame($rebuilt, $out, 'every byte outside the edits is the input\'s');
        if (!$report) {
            Assert::assertSame($html, $out);
        }
    }

    /** [action, address] pairs of a report, for comparing. */
    public static function summary(array $report)
    {
        return array_map(function ($entry) {
            return $entry['action'] . ' ' . $entry['address'];
        }, $report);
    }
}
