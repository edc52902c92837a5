<?php
/**
 * `php -S 127.0.0.1:PORT test/php/support/router.php`: a Joomla site page as the plugin sends it,
 * for test/browser/joomla-plugin.test.ts. The page is a template fixture with the vendors'
 * snippets pasted in, run through the staged plugin (dist/joomla/, the zip's content) on the
 * Joomla stand-ins with the request's own cookies; the bundles come from the package's media/.
 *
 *   /?template=cassiopeia&bundle=lite|react&blocking=1|0    the page
 *   /media/plg_system_pagepulse/<file>.js                   the package's bundles and QA files
 *   /index.php?option=...                                   the components' tasks: `[]`
 */

define('_JEXEC', 1);
define('PAGEPULSE_ROOT', dirname(__DIR__, 3));
define('PAGEPULSE_STAGE', PAGEPULSE_ROOT . '/dist/joomla');
define('PAGEPULSE_FIXTURES', dirname(__DIR__) . '/fixtures');

$path = (string) parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
if (preg_match('~^/media/plg_system_pagepulse/([a-z.]+\.js)$~', $path, $file) && is_file(PAGEPULSE_STAGE . '/media/' . $file[1])) {
    header('Content-Type: text/javascript; charset=utf-8');
    readfile(PAGEPULSE_STAGE . '/media/' . $file[1]);
    return true;
}
if ($path === '/index.php' && isset($_GET['option'])) {
    header('Content-Type: application/json');
    echo '[]';
    return true;
}
if ($path !== '/') {
    http_response_code(404);
    return true;
}

require __DIR__ . '/Joomla.php';
require PAGEPULSE_STAGE . '/pagepulse.php';

$template = isset($_GET['template']) && preg_match('/^[a-z0-9]+$/', $_GET['template']) ? $_GET['template'] : 'cassiopeia';
$html = file_get_contents(PAGEPULSE_FIXTURES . '/' . ($template === 'bootstrap3' ? 'bootstrap3-template' : $template . '-home') . '.html');
$vendors = file_get_contents(PAGEPULSE_FIXTURES . '/vendor-snippets.html');
$at = strripos($html, '</body>');
$html = substr($html, 0, $at) . $vendors . substr($html, $at);

$app = new PagePulse\Tests\Joomla\Application($html, array('option' => 'com_content', 'view' => 'featured'), 'html', 'de-DE');
Joomla\CMS\Factory::$application = $app;
$subject = null;
$plugin = new PlgSystemPagepulse($subject, array('params' => array(
    'bundle' => isset($_GET['bundle']) && $_GET['bundle'] === 'react' ? 'react' : 'lite',
    'blocking' => isset($_GET['blocking']) ? $_GET['blocking'] : '1',
)));
$plugin->onAfterRender();
header('Content-Type: text/html; charset=utf-8');
header('Cache-Control: no-store');
echo $app->getBody();
return true;
