<?php
/**
 * System - PagePulse: the tag first in <head> of every site page, the server half of consent
 * (vendor elements the visitor has not allowed rewritten to the blocked markup before the page
 * leaves the server), and the original clients of com_jrealtimeanalytics and com_gdpr replaced.
 * One class for Joomla 3.9/3.10, 4.x and 5.x (the namespaced core classes exist since 3.8).
 * README "Joomla" says what it does and why.
 *
 * @license MIT
 */

defined('_JEXEC') or die;

use Joomla\CMS\Component\ComponentHelper;
use Joomla\CMS\Factory;
use Joomla\CMS\Language\Text;
use Joomla\CMS\Plugin\CMSPlugin;
use Joomla\CMS\Plugin\PluginHelper;
use Joomla\CMS\Uri\Uri;
use Joomla\CMS\Version;
use PagePulse\Joomla\Consent;
use PagePulse\Joomla\Head;
use PagePulse\Joomla\Policy;
use PagePulse\Joomla\Rewriter;
use PagePulse\Joomla\Settings;

foreach (array('Policy', 'Consent', 'Rewriter', 'Settings', 'Head') as $pagepulseClass) {
    if (!class_exists('PagePulse\\Joomla\\' . $pagepulseClass, false)) {
        require_once __DIR__ . '/lib/' . $pagepulseClass . '.php';
    }
}

/**
 * The plugin: `onAfterRender` rewrites the page the visitor is about to get; the error page, whose
 * path skips onAfterRender, is rewritten by a listener for `onBeforeRespond` on Joomla 4/5 and at
 * PHP's shutdown on Joomla 3 (both set up in `onAfterInitialise`); `onPageCacheGetKey` keys the
 * page cache by consent.
 */
class PlgSystemPagepulse extends CMSPlugin
{
    /** Where the package installs the bundles. */
    const MEDIA = '/media/plg_system_pagepulse/';

    /** Layouts of pages that are never touched: edit forms. */
    const SKIP_LAYOUTS = array('edit');

    /** @var string|null the body as this plugin last left it in this request: never rewritten again */
    private $handled;

    /** @var bool whether the error page's listener (4/5) or hooks (3) are registered (onAfterInitialise) */
    private $listening = false;

    /** @var bool whether onAfterRender ran in this request (Joomla 3's error path skips it) */
    private $rendered = false;

    /** @var bool Joomla 3: whether PHP handed an uncaught exception to the handler (Joomla's error page) */
    private $failed = false;

    /** After rendering: the page as the visitor will get it, rewritten once. */
    public function onAfterRender()
    {
        $this->rendered = true;
        $this->rewriteBody('html');
    }

    /**
     * After the application's start: the hooks that rewrite the error page (a 404, a 403, anything
     * thrown), whose path skips onAfterRender.
     *
     * Joomla 4 and 5: a listener for onBeforeRespond. CMSApplication::execute catches the error,
     * ExceptionHandler::render renders the template's error.php with the error renderer, gives the
     * application that renderer's document (type `error` for HTML) and sets the page as the body;
     * onBeforeRespond is the one event left with the body still open. A listener of its own and not
     * an `onBeforeRespond` method: Joomla 4 dispatches that event without an event object (a plain
     * Joomla\Event\Event), which CMSPlugin's wrapper for methods of this kind refuses with a
     * TypeError (it takes an AbstractEvent), on every page; a closure without a parameter takes 4.x's
     * event and 5.x's BeforeRespondEvent alike.
     *
     * Joomla 3 has no event on its error path: an exception handler and a shutdown function
     * (watchJoomla3Errors), on site requests only.
     */
    public function onAfterInitialise()
    {
        try {
            $app = Factory::getApplication();
            if ($this->listening) {
                return;
            }
            if (class_exists('Joomla\\CMS\\Version') && (int) Version::MAJOR_VERSION === 3) {
                $this->listening = $this->site($app) && $this->watchJoomla3Errors();
                return;
            }
            if (!method_exists($app, 'getDispatcher') || !interface_exists('Joomla\\Event\\DispatcherInterface')) {
                return;
            }
            $dispatcher = $app->getDispatcher();
            if (!($dispatcher instanceof \Joomla\Event\DispatcherInterface)) {
                return;
            }
            $dispatcher->addListener('onBeforeRespond', function () {
                // only the HTML error page: an ordinary page was done in onAfterRender (and may be
                // compressed by now); JSON, feed and XML error answers have documents of their own
                $this->rewriteBody('error');
            });
            $this->listening = true;
        } catch (\Throwable $error) {
            if (defined('JDEBUG') && JDEBUG) {
                error_log('PagePulse: ' . $error->getMessage());
            }
        }
    }

    /**
     * Joomla 3 (3.9, 3.10): the error page is rendered by Joomla\CMS\Exception\ExceptionHandler::render
     * (JErrorPage), for an uncaught exception (libraries/cms.php registers it with
     * set_exception_handler) and for JError::raiseError (includes/framework.php gives E_ERROR to
     * JError::customErrorPage, which calls it; com_content's "article not found" goes that way).
     * render() makes a separate error document, renders error.php, sets the body, echoes
     * `$app->toString()` and calls `$app->close(0)`, which is exit: no plugin event between. What is
     * left is PHP's shutdown, whose functions run before PHP sends the output buffers on; the page
     * is in the top buffer then (3.10 ends every buffer and starts its own before rendering; 3.9 ends
     * the top one if it has content and starts none). So: a wrapper around the exception handler
     * that notes the error and, on 3.9, holds the output in a buffer of its own, and a shutdown
     * function that rewrites the top buffer if it holds exactly the application's body.
     * docs/decisions.md has the source references.
     *
     * @return bool whether the hooks are in place
     */
    private function watchJoomla3Errors()
    {
        $previous = null;
        $previous = set_exception_handler(function ($error) use (&$previous) {
            try {
                $this->failed = true;
                // 3.9's render() ends the top buffer only if it has content (`if (ob_get_contents())`),
                // and echoes into whatever is below, or straight out: an empty buffer of ours on top
                // keeps the page whole until shutdown and changes nothing render() decides (3.10's
                // render() ends it with all the others). Only under Joomla's own handler, whose steps
                // are known.
                if (self::joomlaHandler($previous) && !ob_get_contents()) {
                    ob_start();
                }
            } catch (\Throwable $ignored) {
                // the handler below runs whatever happened here
            }
            call_user_func($previous, $error);
        });
        if ($previous === null) {
            // no handler to wrap (not Joomla's set-up): PHP reports the error as before
            restore_exception_handler();
            return false;
        }
        register_shutdown_function(function () {
            $this->joomla3ErrorPage();
        });
        return true;
    }

    /**
     * Whether an exception handler is Joomla 3's: `JErrorPage::render` (3.9's libraries/cms.php),
     * `Joomla\CMS\Exception\ExceptionHandler::handleException` (3.10's), or the core System -
     * Redirect plugin's `PlgSystemRedirect::handleException`, which touches no output buffer and
     * ends in one of the other two or in a redirect.
     *
     * @param mixed $handler
     * @return bool
     */
    private static function joomlaHandler($handler)
    {
        if (!is_array($handler) || count($handler) !== 2 || !is_string($handler[0]) || !is_string($handler[1])) {
            return false;
        }
        $known = array(
            'jerrorpage' => array('render'),
            'joomla\\cms\\exception\\exceptionhandler' => array('render', 'handleexception'),
            'plgsystemredirect' => array('handleexception'),
        );
        $class = strtolower(ltrim($handler[0], '\\'));
        return isset($known[$class]) && in_array(strtolower($handler[1]), $known[$class], true);
    }

    /**
     * At PHP's shutdown on Joomla 3: the error page in the top output buffer, rewritten as any site
     * page. Only after Joomla's error page was rendered in this request (the exception handler was
     * entered, or JError's path loaded the error document's class and onAfterRender never ran), for
     * a site request that asked for HTML (the print-view rule by `tmpl`/`layout`, not the edit-form
     * exclusions, as on 4/5), when the top buffer holds exactly the application's body, which is
     * then not the page onAfterRender left, and can be cleaned. Anything else, or anything thrown:
     * the output goes as it is.
     *
     * @return void
     */
    private function joomla3ErrorPage()
    {
        try {
            $errorDocument = class_exists('Joomla\\CMS\\Document\\ErrorDocument', false) || class_exists('JDocumentError', false);
            if (!$this->failed && ($this->rendered || !$errorDocument)) {
                return;
            }
            $buffer = ob_get_level() > 0 ? ob_get_status() : array();
            if (empty($buffer['flags']) || !($buffer['flags'] & PHP_OUTPUT_HANDLER_CLEANABLE)) {
                return;
            }
            $app = Factory::getApplication();
            if (!$this->site($app) || !$this->asked($app, true)) {
                return;
            }
            $body = $app->getBody();
            if (!is_string($body) || $body === '' || $body === $this->handled || ob_get_contents() !== $body) {
                return;
            }
            foreach ($this->responseHeaders() as $header) {
                // a length or an encoding set for this body (Joomla 3 sets neither on this path)
                if (preg_match('/^content-(?:length|encoding)\s*:/i', (string) $header)) {
                    return;
                }
            }
            $page = $this->page($app, $body);
            if ($page === null || $page === $body) {
                return;
            }
            // the buffer is cleanable (checked above): should cleaning fail all the same, the page stays as it was
            if (ob_clean()) {
                $this->handled = $page;
                echo $page;
            }
        } catch (\Throwable $error) {
            // the error page goes out as Joomla made it
            if (defined('JDEBUG') && JDEBUG) {
                error_log('PagePulse: ' . $error->getMessage());
            }
        }
    }

    /**
     * The response's headers as PHP holds them (sent or about to be).
     *
     * @return string[]
     */
    protected function responseHeaders()
    {
        return headers_list();
    }

    /**
     * The application's body rewritten, if the request is a site page with a document of this type.
     *
     * @param string $type the document type this event handles: `html` or `error`
     * @return void
     */
    private function rewriteBody($type)
    {
        try {
            // Factory's application: the one way that works on 3.9 to 5.x without a deprecation
            $app = Factory::getApplication();
            if (!$this->applies($app, $type)) {
                return;
            }
            $body = $app->getBody();
            if (!is_string($body) || $body === $this->handled) {
                // this plugin's own output (the document changed, the page did not): rewritten once only
                return;
            }
            $page = $this->page($app, $body);
            if ($page !== null && $page !== $body) {
                $app->setBody($page);
            }
            $this->handled = $page !== null ? $page : $body;
        } catch (\Throwable $error) {
            // the page goes out as Joomla made it: PagePulse never breaks a page
            if (defined('JDEBUG') && JDEBUG) {
                error_log('PagePulse: ' . $error->getMessage());
            }
        }
    }

    /**
     * The page with the tag and the rewriting, or null to leave it.
     *
     * @param object $app the site application
     * @param string $body
     * @return string|null
     */
    public function page($app, $body)
    {
        if ($body === '') {
            return null;
        }
        list($settings, $consent) = $this->decide($app);
        $placed = Head::at($body) !== null;
        if (!$placed && !$settings->bare) {
            // nowhere to put the tag (an XML prolog, a fragment): rewritten embeds would stay held for good
            return null;
        }
        $tag = $placed && $this->tagGoesIn($settings, $consent);
        if (!$tag && !$settings->blocking) {
            return null;
        }
        // without the tag (a print view or a modal before any choice) the vendors are held all the
        // same, and the original clients stay: nothing of PagePulse replaces them there
        $rewriter = new Rewriter($settings->policy, $consent, $tag ? $settings->remove : array());
        $body = $rewriter->rewrite($body);
        foreach ($rewriter->report as $entry) {
            if ($entry['action'] === 'failed') {
                // rare, and it holds the site's own scripts after that point too: always worth a line
                error_log('PagePulse: the page could not be read past byte ' . $entry['start'] . ' (' . $entry['address']
                    . ', pcre.backtrack_limit ' . ini_get('pcre.backtrack_limit') . '); every script, iframe, embed, object and resource hint after it is held');
                break;
            }
        }
        if (!$tag) {
            return $body;
        }
        $file = (defined('JPATH_ROOT') ? JPATH_ROOT : dirname(dirname(dirname(__DIR__)))) . self::MEDIA . $settings->bundle;
        $version = is_file($file) ? substr(md5((string) filemtime($file) . filesize($file)), 0, 8) : '0';
        $src = Uri::root(true) . self::MEDIA . $settings->bundle . '?v=' . $version;
        $nonce = method_exists($app, 'get') ? $app->get('csp_nonce') : null;
        return Head::insert($body, Head::markup($settings, $src, is_string($nonce) ? $nonce : null));
    }

    /**
     * The page cache (System - Page Cache, 3.7 to 5.x) keeps one copy per key: the page differs
     * with what the visitor's consent allows, so that is part of the key. A cached copy made for
     * a visitor who allowed everything never reaches one who did not. The printed tag and config
     * differ too, with com_gdpr's session switches (`gdpr_cookie_category_disabled_N`) and the
     * language: a hash of them ends the key, so no visitor gets another's (left out: the nonce,
     * new on each request, and the bundle's address, the same for everyone).
     *
     * @return string
     */
    public function onPageCacheGetKey()
    {
        try {
            list($settings, $consent) = $this->decide(Factory::getApplication());
        } catch (\Throwable $error) {
            return 'pagepulse:unknown';
        }
        // a print view or a modal gets the tag only with a choice: one copy with it, one without
        $view = $settings->bare ? ($this->tagGoesIn($settings, $consent) ? ':tag' : ':untagged') : '';
        $printed = ':' . substr(md5(Head::markup($settings, '', null)), 0, 12);
        if (!$settings->blocking) {
            return 'pagepulse:off' . $view . $printed;
        }
        $services = $consent->services;
        sort($services);
        return 'pagepulse:' . implode('', array_map('intval', $consent->categories)) . ':' . implode('.', $services) . $view . $printed;
    }

    /**
     * Whether this page gets the tag: every site page, but a print view or a modal only when
     * PagePulse's consent is on and the visitor's choice surely counts, so that the bundle shows no
     * banner there and releases what the choice allows. Before a choice the bundle would show its
     * banner (the protocol has no switch for it), so the tag stays out and the vendors stay held:
     * the visitor chooses on the site's pages, and the view releases them from then on.
     *
     * @param Settings $settings
     * @param Consent $consent
     * @return bool
     */
    private function tagGoesIn(Settings $settings, Consent $consent)
    {
        return !$settings->bare || ($settings->consent && $consent->chosen);
    }

    /**
     * The settings of this page view and what the visitor's cookies allow.
     *
     * @return array{0: Settings, 1: Consent}
     */
    private function decide($app)
    {
        $params = $this->params ? $this->params->toArray() : array();
        $policy = Policy::fromFile(__DIR__ . '/services.json');
        $language = method_exists($app, 'getLanguage') ? $app->getLanguage() : Factory::getLanguage();
        $settings = new Settings(
            $policy,
            $params,
            array('root' => Uri::root(true), 'language' => $language ? $language->getTag() : '', 'bare' => $this->bare($app)),
            $this->gdpr($app)
        );
        $consent = Consent::fromCookieHeader($policy, isset($_SERVER['HTTP_COOKIE']) ? (string) $_SERVER['HTTP_COOKIE'] : '');
        if (!$settings->blocking) {
            $consent = new Consent(array(1 => true, 2 => true, 3 => true, 4 => true), array(), $consent->chosen);
        }
        return array($settings, $consent);
    }

    /**
     * Site pages only: never the administrator, never json/raw/feed output or tmpl=raw, never an
     * edit form or a frontend-editing view. Print views and modals are site pages too (bare()).
     * With `error`: Joomla 4/5's HTML error page (the error renderer's document) of such a request,
     * whatever page was asked for (an edit link's 404 is the template's error page, no form).
     *
     * @param object $app
     * @param string $type the document type: `html` (a page) or `error` (Joomla 4/5's error page)
     * @return bool
     */
    public function applies($app, $type = 'html')
    {
        if (!$this->site($app)) {
            return false;
        }
        $document = method_exists($app, 'getDocument') ? $app->getDocument() : Factory::getDocument();
        if (!$document || $document->getType() !== $type) {
            return false;
        }
        return $this->asked($app, $type === 'error');
    }

    /**
     * The site application, not the administrator.
     *
     * @param object $app
     * @return bool
     */
    private function site($app)
    {
        return method_exists($app, 'isClient') ? $app->isClient('site') : !$app->isAdmin();
    }

    /**
     * The request's part of applies(): an HTML page (no `format` but html, no `tmpl=raw`), and,
     * unless it ended on the error page, no edit form or frontend-editing view.
     *
     * @param object $app
     * @param bool $error whether the answer is the template's error page
     * @return bool
     */
    private function asked($app, $error)
    {
        $input = $app->input;
        $format = (string) $input->getCmd('format', 'html');
        $layout = (string) $input->getCmd('layout', '');
        $task = (string) $input->getCmd('task', '');
        $option = (string) $input->getCmd('option', '');
        $tmpl = (string) $input->getCmd('tmpl', '');
        if ($format !== 'html' && $format !== '') {
            return false;
        }
        if ($tmpl === 'raw') {
            return false;
        }
        if ($error) {
            return true;
        }
        if (in_array($layout, self::SKIP_LAYOUTS, true)) {
            return false;
        }
        // frontend editing: article/contact forms, module and site configuration
        if ($option === 'com_config' || preg_match('/(?:^|\.)(?:edit|add)$/', $task) || $input->getCmd('view', '') === 'form') {
            return false;
        }
        return true;
    }

    /**
     * A print view or a modal (`tmpl=component`, `layout=modal`): the page of an article's print
     * link, of a modal's frame. Its vendors are held as on any page, but no banner may stand in the
     * way there (tagGoesIn).
     *
     * @return bool
     */
    public function bare($app)
    {
        $input = $app->input;
        return (string) $input->getCmd('tmpl', '') === 'component' || (string) $input->getCmd('layout', '') === 'modal';
    }

    /**
     * com_gdpr's settings when it is installed with its consent on: its parameters as stored, the
     * visitor's session switches and its translator, for Settings.
     *
     * @return array|null
     */
    private function gdpr($app)
    {
        if (!ComponentHelper::isEnabled('com_gdpr') || !PluginHelper::isEnabled('system', 'gdpr')) {
            return null;
        }
        $params = ComponentHelper::getParams('com_gdpr');
        if (!$params || !(int) $params->get('enable_cookie_consent', 1)) {
            return null;
        }
        $disabled = array();
        $session = method_exists($app, 'getSession') ? $app->getSession() : Factory::getSession();
        for ($id = 1; $id <= 4; $id++) {
            $disabled[$id] = $session && (int) $session->get('gdpr_cookie_category_disabled_' . $id, 0) === 1;
        }
        $language = method_exists($app, 'getLanguage') ? $app->getLanguage() : Factory::getLanguage();
        if ($language && defined('JPATH_SITE')) {
            $language->load('com_gdpr', JPATH_SITE);
        }
        return array(
            'params' => $params->toArray(),
            'disabled' => $disabled,
            'text' => function ($value) {
                return Text::_($value);
            },
        );
    }
}
