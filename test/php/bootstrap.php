<?php
/**
 * The PHP tests' set-up: the Joomla entry guard, the package's classes from the source tree, and
 * where the build put the staged package and the zip.
 */

define('_JEXEC', 1);
error_reporting(E_ALL);

define('PAGEPULSE_ROOT', dirname(__DIR__, 2));
define('PAGEPULSE_SOURCE', PAGEPULSE_ROOT . '/joomla/plg_system_pagepulse');
define('PAGEPULSE_STAGE', PAGEPULSE_ROOT . '/dist/joomla');
define('PAGEPULSE_ZIP', PAGEPULSE_ROOT . '/dist/pagepulse-joomla.zip');
define('PAGEPULSE_FIXTURES', __DIR__ . '/fixtures');

if (!is_file(PAGEPULSE_STAGE . '/services.json') || !is_file(PAGEPULSE_ZIP)) {
    fwrite(STDERR, "The PHP tests need the built package: run `npm run build` (or `node scripts/test.mjs build php`).\n");
    exit(1);
}

foreach (array('Policy', 'Consent', 'Rewriter', 'Settings', 'Head') as $class) {
    require_once PAGEPULSE_SOURCE . '/lib/' . $class . '.php';
}
require_once __DIR__ . '/support/Pages.php';
