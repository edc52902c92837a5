<?php
/**
 * Stand-ins for the few Joomla classes the plugin calls (3.8+ namespaced names, which Joomla 4
 * and 5 keep): the application with its input, body, document, language, session and config;
 * Factory, Uri, Text, ComponentHelper, PluginHelper; CMSPlugin with its params. Only what the
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

namespace Joomla\CMS\Plugin {

    use Joomla\CMS\Factory;
    use PagePulse\Tests\Joomla\Registry;

    /** Joomla's CMSPlugin: params from the plugin row, the application where the class declares $app. */
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

    /** The site (or administrator) application as the plugin sees it in onAfterRender. */
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

        public function __construct($body, array $query = array(), $type = 'html', $language = 'de-DE')
        {
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
