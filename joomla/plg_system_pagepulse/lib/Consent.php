<?php
/**
 * What the visitor's consent cookies allow, read by the bundle's start-up rule
 * (docs/protocol.md#consent-at-start-up, #revision), and on the safe side wherever the server
 * cannot know what the bundle will decide.
 *
 * @license MIT
 */

namespace PagePulse\Joomla;

defined('_JEXEC') or die;

/** The categories and services a visitor's cookies allow. */
final class Consent
{
    /** @var array<int, bool> category id => allowed */
    public $categories;

    /** @var string[] services allowed on their own */
    public $services;

    /**
     * @var bool whether the bundle surely finds a choice that counts (a status under the current
     *      revision): it then shows no banner. False wherever the server cannot be sure.
     */
    public $chosen;

    /**
     * @param array<int, bool> $categories
     * @param string[] $services
     * @param bool $chosen
     */
    public function __construct(array $categories, array $services, $chosen = false)
    {
        $this->categories = $categories;
        $this->services = $services;
        $this->chosen = $chosen;
    }

    /**
     * Decide from the raw Cookie header as the bundle reads document.cookie: the first cookie of
     * a name counts, its value percent-decoded.
     *
     * - a choice made under a lower revision than the page's, or than the higher one the browser
     *   met before (`pagepulse_revision`, the bundle's effectiveRevision), does not count (a first visit);
     * - our categories cookie with a valid status: exactly those categories (plus the locked);
     * - `dismiss` without it: the defaults; `deny`: the locked only;
     * - `allow` without it (a choice made under com_gdpr): the bundle also reads the visitor's
     *   localStorage, which the server cannot see, so only the locked categories count here and
     *   the bundle releases the rest in the page;
     * - a revision cookie (either) that is not a plain number: the locked categories only, no service;
     * - chosen: a status the bundle counts (it shows no banner), never where the server is unsure.
     *
     * @param Policy $policy
     * @param string $header the Cookie request header ('' when none)
     * @return self
     */
    public static function fromCookieHeader(Policy $policy, $header)
    {
        $jar = self::parseCookies($header);
        $locked = array();
        foreach ($policy->categories as $id => $category) {
            $locked[$id] = $category['locked'];
        }
        $revision = isset($jar['cookieconsent_revision']) ? trim($jar['cookieconsent_revision']) : '';
        $seen = isset($jar['pagepulse_revision']) ? trim($jar['pagepulse_revision']) : '';
        if (($revision !== '' && !preg_match('/^\d{1,10}$/', $revision)) || ($seen !== '' && !preg_match('/^\d{1,10}$/', $seen))) {
            return new self($locked, array());
        }
        // the bundle's effectiveRevision: the page's, or a higher one this browser met before
        if (max($policy->revision, (int) $seen) > (int) $revision) {
            return new self($policy->defaults(), array());
        }
        $status = isset($jar['cookieconsent_status']) ? $jar['cookieconsent_status'] : null;
        $listed = isset($jar['cookieconsent_categories']) ? $jar['cookieconsent_categories'] : null;
        $own = $listed !== null && preg_match('/^(?:[1-4](?:\.[1-4])*)?$/D', $listed) ? explode('.', $listed) : null;
        if ($status !== 'allow' && $status !== 'deny' && $status !== 'dismiss') {
            $categories = $policy->defaults();
        } elseif ($own !== null) {
            $categories = array();
            foreach ($locked as $id => $isLocked) {
                $categories[$id] = $isLocked || in_array((string) $id, $own, true);
            }
        } elseif ($status === 'dismiss') {
            $categories = $policy->defaults();
        } else {
            $categories = $locked;
        }
        $services = array();
        $chosen = $status === 'allow' || $status === 'deny' || $status === 'dismiss';
        $wanted = isset($jar['pagepulse_services']) ? explode('.', $jar['pagepulse_services']) : array();
        foreach ($wanted as $key) {
            if ($policy->hasService($key) && !in_array($key, $services, true)) {
                $services[] = $key;
            }
        }
        return new self($categories, $services, $chosen);
    }

    /** Whether an element of this category and service may load. */
    public function allows($category, $service)
    {
        return !empty($this->categories[$category]) || ($service !== null && in_array($service, $this->services, true));
    }

    /** Whether every category is on: nothing on any page can be blocked. */
    public function allowsEverything()
    {
        foreach ($this->categories as $on) {
            if (!$on) {
                return false;
            }
        }
        return true;
    }

    /**
     * Cookie header -> name => value, first of a name wins; a value that does not decode is null.
     *
     * @param string $header
     * @return array<string, string|null>
     */
    public static function parseCookies($header)
    {
        $jar = array();
        foreach (explode(';', (string) $header) as $part) {
            $eq = strpos($part, '=');
            if ($eq === false) {
                continue;
            }
            $name = trim(substr($part, 0, $eq));
            if ($name === '' || array_key_exists($name, $jar)) {
                continue;
            }
            $raw = trim(substr($part, $eq + 1));
            // decodeURIComponent throws on a malformed escape or bytes that are not UTF-8: null then
            $decoded = rawurldecode($raw);
            $jar[$name] = preg_match('/%(?![0-9A-Fa-f]{2})/', $raw) || !preg_match('//u', $decoded) ? null : $decoded;
        }
        return $jar;
    }
}
