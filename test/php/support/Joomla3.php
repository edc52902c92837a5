<?php
/**
 * Joomla 3's error path, for test/php/support/joomla3-error.php (one request per PHP process):
 * Version, the error handler of 3.9 and of 3.10 with their different output buffer steps, JError's
 * E_ERROR path and the parts of the 3.x application it calls (allowCache, setHeader, toString,
 * close). Written after Joomla's source as docs/decisions.md cites it ("Error pages"), not copied:
 * only what decides where the page's bytes go.
 */

namespace Joomla\CMS {

    /** Joomla 3.8+'s version constants. */
    final class Version
    {
        const MAJOR_VERSION = 3;
    }
}

namespace Joomla\CMS\Exception {

    use Joomla\CMS\Factory;

    /**
     * libraries/src/Exception/ExceptionHandler.php of 3.9 (`render`, registered as JErrorPage::render)
     * and of 3.10 (`handleException`, which logs and calls `render`).
     */
    class ExceptionHandler
    {
        /** @var int the 3.x minor version whose steps render() takes: 9 or 10 */
        public static $minor = 10;

        /** @var string what the template's error.php prints */
        public static $page = '';

        public static function handleException($error)
        {
            static::render($error);
        }

        public static function render($error)
        {
            $app = Factory::getApplication();
            // Document::getInstance('error') loads and makes the error document
            require_once __DIR__ . '/Joomla3ErrorDocument.php';
            $document = new \Joomla\CMS\Document\ErrorDocument();
            if (self::$minor >= 10) {
                // 3.10: every buffer ended, one of its own started
                while (ob_get_level()) {
                    ob_end_clean();
                }
                ob_start();
            } elseif (ob_get_contents()) {
                // 3.9: the top buffer ended if it has content; none started
                ob_end_clean();
            }
            $data = $document->render(self::$page, (int) $error->getCode());
            $app->allowCache(false);
            $app->setBody($data);
            echo $app->toString();
            $app->close(0);
        }
    }
}

namespace {

    use Joomla\CMS\Exception\ExceptionHandler;

    class_alias('Joomla\\CMS\\Exception\\ExceptionHandler', 'JErrorPage');

    /**
     * The core System - Redirect plugin's exception handler (plugins/system/redirect/redirect.php):
     * a 404 without a redirect goes to the handler it replaced, untouched.
     */
    final class PlgSystemRedirect
    {
        /** @var callable|null */
        public static $previousExceptionHandler;

        public static function handleException($exception)
        {
            call_user_func_array(self::$previousExceptionHandler, array($exception));
        }
    }

    /** JError::raiseError(404, ...): E_ERROR's callback (JError::customErrorPage) renders the error page. */
    abstract class JError
    {
        public static function raiseError($code, $msg, $info = null)
        {
            ExceptionHandler::render(new \Exception($msg, $code));
        }
    }
}

namespace PagePulse\Tests\Joomla {

    /** The 3.x site application: the web application's response methods the error path calls. */
    class Application3 extends Application
    {
        /** @var array[] name, value */
        public $headers = array();

        /** 3.x's application event dispatcher is JEventDispatcher, not joomla/event's. */
        public function getDispatcher()
        {
            return new \stdClass();
        }

        public function allowCache($allow = null)
        {
            return false;
        }

        public function setHeader($name, $value, $replace = false)
        {
            $this->headers[] = array('name' => $name, 'value' => $value);
            return $this;
        }

        /** WebApplication::toString without compression: the headers sent, then the body. */
        public function toString($compress = false)
        {
            foreach ($this->headers as $header) {
                header($header['name'] . ': ' . $header['value']);
            }
            return $this->getBody();
        }

        /** The application's close(): exit. */
        public function close($code = 0)
        {
            exit($code);
        }
    }
}
