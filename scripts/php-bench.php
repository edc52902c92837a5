<?php
/**
 * The server-side rewriter's cost (README "Joomla"): a 200 KB page, the real Joomla 3 protostar
 * home page with article text, menus, forms, inline scripts and the vendors' snippets repeated
 * into it, rewritten 20 times per case; prints the median and the slowest run of each.
 *
 *   php scripts/php-bench.php [dist/joomla/services.json]
 */

define('_JEXEC', 1);
$root = dirname(__DIR__);
foreach (array('Policy', 'Consent', 'Rewriter', 'Settings') as $class) {
    require_once $root . '/joomla/plg_system_pagepulse/lib/' . $class . '.php';
}

use PagePulse\Joomla\Consent;
use PagePulse\Joomla\Policy;
use PagePulse\Joomla\Rewriter;
use PagePulse\Joomla\Settings;

const TARGET_BYTES = 200 * 1024;
const RUNS = 20;

/** The benchmark page: protostar's head and frame, its body grown to 200 KB. */
function benchPage($root, $withVendors)
{
    $page = file_get_contents($root . '/test/php/fixtures/protostar-home.html');
    $vendors = file_get_contents($root . '/test/php/fixtures/vendor-snippets.html');
    $article = '<div class="item" itemprop="blogPost" itemscope itemtype="https://schema.org/BlogPosting">'
        . '<div class="page-header"><h2 itemprop="name"><a href="/index.php/blog/%d-article" itemprop="url">Article %d</a></h2></div>'
        . '<dl class="article-info muted"><dt class="article-info-term">Details</dt><dd class="createdby" itemprop="author">'
        . '<span itemprop="name">Super User</span></dd><dd class="published"><span class="icon-calendar" aria-hidden="true"></span>'
        . '<time datetime="2026-11-01T10:00:00+00:00" itemprop="datePublished">Published: 01 November 2026</time></dd></dl>'
        . '<p>Lorem ipsum dolor sit amet, <strong>consectetur</strong> adipiscing elit, sed do eiusmod tempor incididunt ut labore '
        . 'et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud <a href="/index.php/kontakt" title="a > b">exercitation</a> '
        . 'ullamco laboris nisi ut aliquip ex ea commodo consequat.</p><!-- article %d -->'
        . '<ul class="nav menu mod-list"><li class="item-101 default current active"><a href="/">Home</a></li>'
        . '<li class="item-102"><a href="/index.php/blog">Blog</a></li></ul>'
        . '<form action="/index.php" method="post"><input type="text" name="searchword" value="" placeholder="Search ..."></form>'
        . '<script>jQuery(function($){ $(".hasTooltip").tooltip({"html": true, "container": "body"}); if (1 < 2) {} });</script>'
        . '<style>.item-%d h2 { color: #333 }</style><img src="/images/joomla_black.png" alt="" width="225" height="50"></div>';
    $body = '';
    for ($i = 0; strlen($page) + strlen($body) < TARGET_BYTES; $i++) {
        $body .= sprintf($article, $i, $i, $i, $i);
        if ($withVendors && $i % 25 === 0) {
            $body .= $vendors;
        }
    }
    return str_replace('<!-- Begin Content -->', '<!-- Begin Content -->' . $body, $page);
}

function median(array $values)
{
    sort($values);
    $n = count($values);
    return $n % 2 ? $values[intdiv($n, 2)] : ($values[$n / 2 - 1] + $values[$n / 2]) / 2;
}

$table = isset($argv[1]) ? $argv[1] : $root . '/dist/joomla/services.json';
if (!is_file($table)) {
    fwrite(STDERR, "no $table: run `npm run build` first\n");
    exit(1);
}
$policy = Policy::fromFile($table);
$cases = array(
    'first visit, vendors on the page' => array(benchPage($root, true), ''),
    'first visit, no vendor on the page' => array(benchPage($root, false), ''),
    'consented visitor (everything allowed)' => array(benchPage($root, true), 'cookieconsent_status=allow; cookieconsent_categories=1.2.3.4'),
);
printf("PHP %s, %d runs per case\n", PHP_VERSION, RUNS);
foreach ($cases as $name => $case) {
    list($html, $cookies) = $case;
    $rewriter = new Rewriter($policy, Consent::fromCookieHeader($policy, $cookies), Settings::CLIENTS);
    $rewriter->rewrite($html); // warm-up: PCRE compiles its patterns once per process
    $times = array();
    for ($run = 0; $run < RUNS; $run++) {
        $start = hrtime(true);
        $out = $rewriter->rewrite($html);
        $times[] = (hrtime(true) - $start) / 1e6;
    }
    printf("%-40s %6.1f KB  median %.2f ms  max %.2f ms  (%d elements rewritten, output %s)\n", $name, strlen($html) / 1024, median($times), max($times), count($rewriter->report), $out === $html ? 'unchanged' : 'rewritten');
}
