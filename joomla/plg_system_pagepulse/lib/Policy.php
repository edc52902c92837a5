<?php
/**
 * What a site blocks and allows: the services table, the categories and the consent settings the
 * bundle runs on, so that the server and the bundle decide alike (docs/protocol.md#services).
 *
 * @license MIT
 */

namespace PagePulse\Joomla;

defined('_JEXEC') or die;

/** The consent model: services, categories, compliance and revision. No Joomla dependency. */
final class Policy
{
    /** Keys of services: as the bundle accepts them (docs/protocol.md#services). */
    const SERVICE_KEY = '/^[a-z0-9-]{1,32}$/';

    /**
     * Per category 1..4: locked (always on), defaultOn (on before a choice under opt-out), disabled
     * (com_gdpr has it off for this visitor) and domains (hosts that belong to it).
     *
     * @var array<int, array{locked: bool, defaultOn: bool, disabled: bool, domains: string[]}>
     */
    public $categories = array();

    /**
     * The services: key => category (2..4), name, hosts.
     *
     * @var array<string, array{category: int, name: string, hosts: string[]}>
     */
    public $services = array();

    /** @var string 'opt-in' or 'opt-out' */
    public $compliance = 'opt-out';

    /** @var int the consent policy's revision (docs/protocol.md#revision) */
    public $revision = 0;

    /** @var array<string, array>|null host pattern index, built on first use */
    private $index = null;

    /**
     * The built-in table as the build wrote it (services.json: services, category domains).
     *
     * @param array $table decoded services.json
     * @return self
     */
    public static function fromTable(array $table)
    {
        $policy = new self();
        for ($id = 1; $id <= 4; $id++) {
            $domains = isset($table['categories'][$id]['domains']) ? $table['categories'][$id]['domains'] : array();
            $policy->categories[$id] = array(
                'locked' => $id === 1,
                'defaultOn' => $id <= 2,
                'disabled' => false,
                'domains' => self::hosts($domains),
            );
        }
        $services = isset($table['services']) && is_array($table['services']) ? $table['services'] : array();
        foreach ($services as $key => $service) {
            $policy->setService((string) $key, $service);
        }
        return $policy;
    }

    /** Load the build's services.json. */
    public static function fromFile($path)
    {
        $text = is_file($path) ? file_get_contents($path) : false;
        $table = $text === false ? null : json_decode($text, true);
        return self::fromTable(is_array($table) ? $table : array());
    }

    /**
     * Add or replace a service (null drops it). Returns false for a bad key or entry, which changes nothing.
     *
     * @param string $key
     * @param array|null $service category, name, hosts
     * @return bool
     */
    public function setService($key, $service)
    {
        if (!preg_match(self::SERVICE_KEY, $key)) {
            return false;
        }
        if ($service === null) {
            unset($this->services[$key]);
            $this->index = null;
            return true;
        }
        $category = is_array($service) && isset($service['category']) && is_int($service['category']) ? $service['category'] : 0;
        if ($category < 2 || $category > 4 || !isset($service['name']) || !is_string($service['name'])) {
            return false;
        }
        $this->services[$key] = array(
            'category' => $category,
            'name' => $service['name'],
            'hosts' => self::hosts(isset($service['hosts']) ? $service['hosts'] : array()),
        );
        $this->index = null;
        return true;
    }

    /** Add hosts to a category's domains. */
    public function addDomains($id, array $hosts)
    {
        if (isset($this->categories[$id])) {
            $this->categories[$id]['domains'] = array_values(array_unique(array_merge($this->categories[$id]['domains'], self::hosts($hosts))));
            $this->index = null;
        }
    }

    /**
     * The categories before any choice: opt-out uses each category's default, opt-in only the locked ones.
     *
     * @return array<int, bool>
     */
    public function defaults()
    {
        $out = array();
        foreach ($this->categories as $id => $category) {
            $out[$id] = $category['locked'] || ($this->compliance === 'opt-out' && $category['defaultOn']);
        }
        return $out;
    }

    /**
     * What an address belongs to: [category, service key or null], or null when neither a
     * category's domains nor a service's hosts hold it. A category's domains come first, the
     * service is looked up on its own (as the bundle's blocker does).
     *
     * @param string $host lower-case host name
     * @param string $path the address's path ('/' when none)
     * @return array{0: int, 1: string|null}|null
     */
    public function classify($host, $path)
    {
        if ($this->index === null) {
            $this->buildIndex();
        }
        $category = null;
        $service = null;
        $labels = explode('.', $host);
        $count = count($labels);
        for ($i = 0; $i < $count && ($category === null || $service === null); $i++) {
            $suffix = implode('.', array_slice($labels, $i));
            $candidates = array($suffix);
            // `maps.google.*`: any top-level domain of one or two labels (google.de, google.co.uk)
            for ($tld = 1; $tld <= 2 && $count - $i - $tld >= 1; $tld++) {
                $candidates[] = implode('.', array_slice($labels, $i, $count - $i - $tld)) . '.*';
            }
            foreach ($candidates as $candidate) {
                if (!isset($this->index[$candidate])) {
                    continue;
                }
                foreach ($this->index[$candidate] as $rule) {
                    if ($rule[2] !== '' && strncasecmp($path, $rule[2], strlen($rule[2])) !== 0) {
                        continue;
                    }
                    if ($rule[1] === null && $category === null) {
                        $category = $rule[0];
                    } elseif ($rule[1] !== null && $service === null) {
                        $service = $rule[1];
                    }
                }
            }
        }
        if ($category === null && $service === null) {
            return null;
        }
        return array($category !== null ? $category : $this->services[$service]['category'], $service);
    }

    /** The service a key names, when the table has it. */
    public function hasService($key)
    {
        return isset($this->services[$key]);
    }

    private function buildIndex()
    {
        $this->index = array();
        // category domains first, in category order: the first category holding a host wins
        foreach ($this->categories as $id => $category) {
            foreach ($category['domains'] as $pattern) {
                $this->addRule($pattern, $id, null);
            }
        }
        foreach ($this->services as $key => $service) {
            foreach ($service['hosts'] as $pattern) {
                $this->addRule($pattern, $service['category'], $key);
            }
        }
    }

    private function addRule($pattern, $category, $service)
    {
        $slash = strpos($pattern, '/');
        $host = $slash === false ? $pattern : substr($pattern, 0, $slash);
        $path = $slash === false ? '' : substr($pattern, $slash);
        $this->index[$host][] = array($category, $service, $path);
    }

    /**
     * Host patterns as given: lower case, trimmed, without scheme or a trailing dot; `host`,
     * `host/path-prefix` or `name.*` (any top-level domain). Anything else is dropped.
     *
     * @param mixed $list
     * @return string[]
     */
    public static function hosts($list)
    {
        $out = array();
        foreach (is_array($list) ? $list : array() as $entry) {
            if (!is_string($entry)) {
                continue;
            }
            $entry = strtolower(trim($entry));
            $entry = preg_replace('~^(?:https?:)?//~', '', $entry);
            if (preg_match('~^(?:[a-z0-9_-]+\.)*[a-z0-9_-]+(?:\.\*)?(?:/[^\s]*)?$~', $entry) && strpos($entry, '.') !== false) {
                $out[] = $entry;
            }
        }
        return array_values(array_unique($out));
    }
}
