<?php
/**
 * Stand-ins for the few Joomla classes the plugin calls (3.8+ namespaced names, which Joomla 4
 * and 5 keep): the application with its input, body, document, language, session, config and
 * (4/5) event dispatcher; Factory, Uri, Text, ComponentHelper, PluginHelper; CMSPlugin with its
 * params and 4/5's wrapping of on* methods; joomla/event's Event and Dispatcher. Only what the
 * plugin uses, with Joomla's signatures. No Joomla is installed here: README "Joomla" says which
 * versions were tried and how.
 */

namespace {
    // Joomla's path constants: a site root whose media/plg_system_pagepulse/ is the package's media/
    if (!defined('JPATH_ROOT')) {
        $site = sys_get_temp_dir() . '/pagepulse-site-' . getmypid();
        if (!is_dir($site . '/media')) {
            mkdir($site . '/media', 0777, true);
            symlink(PAGEPULSE_STAGE . '/media', $site . '/media/plg_system_pagepulse');
        }
        register_shutdown_function(function () use ($site) {
            @unlink($site . '/media/plg_system_pagepulse');
            @rmdir($site . '/media');
            @rmdir($site);
        });
        define('JPATH_ROOT', $site);
        define('JPATH_SITE', $site);
        define('JPATH_PLUGINS', $site . '/plugins');
    }
}

namespace Joomla\Event {

    /** joomla/event 2.x (Joomla 4/5): the parts the plugin and Joomla's application use. */
    interface EventInterface
    {
        public function getName();
    }

    class Event implements EventInterface
    {
        /** @var string */
        private $name;
        /** @var array */
        private $arguments;

        public function __construct($name, array $arguments = array())
        {
            $this->name = $name;
            $this->arguments = $arguments;
        }

        public function getName()
        {
            return $this->name;
        }

        public function getArguments()
        {
            return $this->arguments;
        }
    }

    interface DispatcherInterface
    {
        public function addListener(string $eventName, callable $callback, int $priority = 0): bool;

        public function dispatch(string $name, ?EventInterface $event = null): EventInterface;
    }

    /** Dispatcher::dispatch as in joomla/event 2.x: without an event object, a plain Event. */
    final class Dispatcher implements DispatcherInterface
    {
        /** @var array<string, callable[]> */
        public $listeners = array();

        public function addListener(string $eventName, callable $callback, int $priority = 0): bool
        {
            $this->listeners[$eventName][] = $callback;
            return true;
        }

        public function dispatch(string $name, ?EventInterface $event = null): EventInterface
        {
            $event = $event ?: new Event($name);
            foreach (isset($this->listeners[$name]) ? $this->listeners[$name] : array() as $listener) {
                $listener($event);
            }
            return $event;
        }
    }
}

namespace Joomla\CMS\Event {

    /** Joomla 4/5's event base class: what triggerEvent() and the concrete 5.x events are. */
    abstract class AbstractEvent extends \Joomla\Event\Event
    {
    }

    /** What triggerEvent('onAfterInitialise') and the like dispatch on 4.x. */
    final class GenericEvent extends AbstractEvent
    {
    }
}

namespace Joomla\CMS\Event\Application {

    /** Joomla 5's `new BeforeRespondEvent('onBeforeRespond', ['subject' => $this])`. */
    final class BeforeRespondEvent extends \Joomla\CMS\Event\AbstractEvent
    {
    }
}

namespace Joomla\CMS\Plugin {

    use Joomla\CMS\Event\AbstractEvent;
    use Joomla\CMS\Factory;
    use Joomla\Event\DispatcherInterface;
    use PagePulse\Tests\Joomla\Registry;

    /**
     * Joomla's CMSPlugin: params from the plugin row, the application where the class declares $app.
     * Given Joomla 4/5's dispatcher, it registers its on* methods as 4.x/5.x's
     * CMSPlugin::registerLegacyListener does: each wrapped in a closure that takes an AbstractEvent
     * and passes the event's arguments on (so a plain Joomla\Event\Event is a TypeError, as there).
     */
    abstract class CMSPlugin
    {
        /** @var Registry */
        public $params;

        public function __construct($subject, array $config = array())
        {
            $this->params = new Registry(isset($config['params']) ? $config['params'] : array());
            if (property_exists($this, 'app')) {
                $this->app = Factory::getApplication();
            }
            if ($subject instanceof DispatcherInterface) {
                foreach (get_class_methods($this) as $method) {
                    if (substr($method, 0, 2) === 'on') {
                        $subject->addListener($method, function (AbstractEvent $event) use ($method) {
                            $this->{$method}(...array_values($event->getArguments()));
                        });
                    }
                }
            }
        }
    }

    final class PluginHelper
    {
        /** @var array<string, bool> "group/element" => enabled */
        public static $enabled = array();

        public static function isEnabled($type, $plugin = null)
        {
            return !empty(self::$enabled[$type . '/' . $plugin]);
        }
    }
}

namespace Joomla\CMS\Component {

    use PagePulse\Tests\Joomla\Registry;

    final class ComponentHelper
    {
        /** @var array<string, array> installed components => params */
        public static $components = array();

        public static function isEnabled($option)
        {
            return isset(self::$components[$option]);
        }

        public static function getParams($option, $strict = false)
        {
            return new Registry(isset(self::$components[$option]) ? self::$components[$option] : array());
        }
    }
}

namespace Joomla\CMS\Uri {

    final class Uri
    {
        /** @var string the site's path ('' at the domain's root) */
        public static $root = '';

        public static function root($pathonly = false, $path = null)
        {
            return $pathonly ? self::$root : 'https://www.example.org' . self::$root . '/';
        }
    }
}

namespace Joomla\CMS\Language {

    final class Text
    {
        /** @var array<string, string> */
        public static $strings = array();

        public static function _($string, $jsSafe = false, $interpretBackSlashes = true, $script = false)
        {
            return isset(self::$strings[$string]) ? self::$strings[$string] : $string;
        }
    }
}

namespace Joomla\CMS {

    use PagePulse\Tests\Joomla\Application;

    final class Factory
    {
        /** @var Application|null */
        public static $application;

        public static function getApplication($id = null, array $config = array(), $prefix = 'J')
        {
            return self::$application;
        }

        public static function getLanguage()
        {
            return self::$application->getLanguage();
        }

        public static function getDocument()
        {
            return self::$application->getDocument();
        }

        public static function getSession(array $options = array())
        {
            return self::$application->getSession();
        }
    }
}

namespace PagePulse\Tests\Joomla {

    /** Joomla\Registry\Registry's get/set/toArray. */
    final class Registry
    {
        /** @var array */
        private $data;

        public function __construct($data = array())
        {
            $this->data = is_array($data) ? $data : array();
        }

        public function get($path, $default = null)
        {
            return isset($this->data[$path]) && $this->data[$path] !== '' ? $this->data[$path] : $default;
        }

        public function set($path, $value)
        {
            $this->data[$path] = $value;
        }

        public function toArray()
        {
            return $this->data;
        }
    }

    /** The request's query (Joomla\Input\Input::getCmd filters to A-Z a-z 0-9 . _ -). */
    final class Input
    {
        /** @var array */
        private $query;

        public function __construct(array $query)
        {
            $this->query = $query;
        }

        public function getCmd($name, $default = '')
        {
            return isset($this->query[$name]) ? ltrim(preg_replace('/[^A-Z0-9_.-]/i', '', (string) $this->query[$name]), '.') : $default;
        }
    }

    final class Document
    {
        /** @var string */
        private $type;

        public function __construct($type)
        {
            $this->type = $type;
        }

        public function getType()
        {
            return $this->type;
        }
    }

    final class Language
    {
        /** @var string */
        private $tag;

        /** @var string[] extensions loaded */
        public $loaded = array();

        public function __construct($tag)
        {
            $this->tag = $tag;
        }

        public function getTag()
        {
            return $this->tag;
        }

        public function load($extension = 'joomla', $basePath = '', $lang = null, $reload = false, $default = true)
        {
            $this->loaded[] = $extension;
            return true;
        }
    }

    final class Session
    {
        /** @var array */
        public $data = array();

        public function get($name, $default = null)
        {
            return array_key_exists($name, $this->data) ? $this->data[$name] : $default;
        }
    }

    /** The site (or administrator) application as the plugin sees it in onAfterRender and onBeforeRespond. */
    class Application
    {
        /** @var Input */
        public $input;
        /** @var string */
        public $client = 'site';
        /** @var string */
        private $body;
        /** @var Document */
        private $document;
        /** @var Language */
        private $language;
        /** @var Session */
        private $session;
        /** @var array */
        private $config = array();

        /** @var \Joomla\Event\Dispatcher */
        private $dispatcher;

        public function __construct($body, array $query = array(), $type = 'html', $language = 'de-DE')
        {
            $this->dispatcher = new \Joomla\Event\Dispatcher();
            $this->body = $body;
            $this->input = new Input($query);
            $this->document = new Document($type);
            $this->language = new Language($language);
            $this->session = new Session();
        }

        public function isClient($identifier)
        {
            return $this->client === $identifier;
        }

        public function getBody($asArray = false)
        {
            return $this->body;
        }

        public function setBody($content)
        {
            $this->body = $content;
            return $this;
        }

        public function getDocument()
        {
            return $this->document;
        }

        /** Joomla 4/5's application dispatcher (DispatcherAwareTrait). */
        public function getDispatcher()
        {
            return $this->dispatcher;
        }

        /**
         * Joomla 4/5's CMSApplication::loadDocument: Joomla's ExceptionHandler gives the application
         * the error renderer's document (type `error`, or `json`/`feed`/`xml` for those formats).
         */
        public function loadDocument($document = null)
        {
            $this->document = $document;
            return $this;
        }

        public function getLanguage()
        {
            return $this->language;
        }

        public function getSession()
        {
            return $this->session;
        }

        public function get($key, $default = null)
        {
            return array_key_exists($key, $this->config) ? $this->config[$key] : $default;
        }

        public function set($key, $value)
        {
            $this->config[$key] = $value;
        }
    }
}
