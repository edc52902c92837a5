<?php
/**
 * One Joomla 3 request, run as a PHP process of its own: `php joomla3-error.php '<case as JSON>'`
 * prints what the visitor gets. Joomla 3's error page leaves through `exit` and PHP's shutdown
 * (ExceptionHandler::render echoes the page and closes the application), so the plugin's part
 * there runs only in a process that really ends; test/php/Joomla3ErrorTest.php starts one per case.
 *
 * The case: `minor` (9 or 10: whose ExceptionHandler steps), `via` (`exception`: an uncaught
 * exception; `jerror`: JError::raiseError; `none`: an ordinary page that is sent and ends),
 * `query`, `client`, `params`, `cookie`, `page` (the fixture error.php prints), `buffers` (output
 * buffers open when the error comes: [content, chunk size], the component's, a template's, PHP's
 * output_buffering), `rendered` (an ordinary page was rendered and onAfterRender ran first),
 * `handler` (`joomla`, `redirect`: the System - Redirect plugin's in front of Joomla's, `other`:
 * another extension's handler that prints its own page, `none`),
 * `headers` (response headers the plugin is told of), `errorDocument` (the error document's class
 * loaded on an ordinary page), `brokenLanguage` (the application's language throws).
 */

define('_JEXEC', 1);
define('PAGEPULSE_ROOT', dirname(__DIR__, 3));
define('PAGEPULSE_STAGE', PAGEPULSE_ROOT . '/dist/joomla');
define('PAGEPULSE_FIXTURES', dirname(__DIR__) . '/fixtures');

$case = json_decode($argv[1], true) + array(
    'minor' => 10, 'via' => 'exception', 'query' => array('option' => 'com_content', 'view' => 'article', 'id' => '999'),
    'client' => 'site', 'params' => array(), 'cookie' => '', 'page' => 'protostar-error', 'buffers' => array(),
    'rendered' => false, 'handler' => 'joomla', 'headers' => array(), 'errorDocument' => false, 'brokenLanguage' => false,
);
$_SERVER['HTTP_COOKIE'] = $case['cookie'];

// a site root whose media/plg_system_pagepulse/ is the package's media/, gone after the plugin's shutdown work
$site = sys_get_temp_dir() . '/pagepulse-j3-' . getmypid();
@mkdir($site . '/media', 0777, true);
@symlink(PAGEPULSE_STAGE . '/media', $site . '/media/plg_system_pagepulse');
define('JPATH_ROOT', $site);
define('JPATH_SITE', $site);

require __DIR__ . '/Joomla.php';
require __DIR__ . '/Joomla3.php';
require PAGEPULSE_STAGE . '/pagepulse.php';

use Joomla\CMS\Exception\ExceptionHandler;
use Joomla\CMS\Factory;
use PagePulse\Tests\Joomla\Application3;

/** The plugin, told of the response headers a CLI process does not keep. */
final class Joomla3Plugin extends PlgSystemPagepulse
{
    /** @var string[] */
    public $sent = array();

    protected function responseHeaders()
    {
        return array_merge(parent::responseHeaders(), $this->sent);
    }
}

ExceptionHandler::$minor = (int) $case['minor'];
ExceptionHandler::$page = (string) file_get_contents(PAGEPULSE_FIXTURES . '/' . $case['page'] . '.html');
if ($case['handler'] === 'joomla') {
    // libraries/cms.php: 3.9 `array('JErrorPage', 'render')`, 3.10 ExceptionHandler::handleException
    set_exception_handler($case['minor'] >= 10 ? array('Joomla\\CMS\\Exception\\ExceptionHandler', 'handleException') : array('JErrorPage', 'render'));
} elseif ($case['handler'] === 'redirect') {
    set_exception_handler($case['minor'] >= 10 ? array('Joomla\\CMS\\Exception\\ExceptionHandler', 'handleException') : array('JErrorPage', 'render'));
    PlgSystemRedirect::$previousExceptionHandler = set_exception_handler(array('PlgSystemRedirect', 'handleException'));
} elseif ($case['handler'] === 'other') {
    set_exception_handler(function ($error) {
        echo '<p>An extension\'s own error page: ' . htmlspecialchars($error->getMessage()) . '</p>';
        exit(0);
    });
}

$app = $case['brokenLanguage']
    ? new class('', $case['query']) extends Application3 {
        public function getLanguage()
        {
            throw new RuntimeException('no language');
        }
    }
    : new Application3('', $case['query']);
$app->client = $case['client'];
Factory::$application = $app;
$subject = null;
$plugin = new Joomla3Plugin($subject, array('name' => 'pagepulse', 'type' => 'system', 'params' => $case['params']));
$plugin->sent = $case['headers'];
$plugin->onAfterInitialise();
$plugin->onAfterInitialise();
register_shutdown_function(function () use ($site) {
    @unlink($site . '/media/plg_system_pagepulse');
    @rmdir($site . '/media');
    @rmdir($site);
});

if ($case['rendered']) {
    $home = (string) file_get_contents(PAGEPULSE_FIXTURES . '/protostar-home.html');
    $at = (int) strripos($home, '</body>');
    $app->setBody(substr($home, 0, $at) . file_get_contents(PAGEPULSE_FIXTURES . '/vendor-snippets.html') . substr($home, $at));
    $plugin->onAfterRender();
}
if ($case['errorDocument']) {
    require_once __DIR__ . '/Joomla3ErrorDocument.php';
}
foreach ($case['buffers'] as $buffer) {
    ob_start(null, $buffer[1]);
    echo $buffer[0];
}
if ($case['via'] === 'jerror') {
    JError::raiseError(404, 'Beitrag nicht gefunden');
} elseif ($case['via'] === 'exception') {
    throw new Exception('Seite nicht gefunden', 404);
}
// an ordinary page: respond() echoes the body, the request ends
echo $app->getBody();
