<?php
/**
 * The plugin's settings and com_gdpr's, turned into what the page gets: the tag's data-*
 * attributes (docs/protocol.md#configuration), a window.PagePulseConfig for what attributes
 * cannot carry, and the Policy the server-side blocking decides with. No Joomla dependency: the
 * plugin hands in plain arrays.
 *
 * @license MIT
 */

namespace PagePulse\Joomla;

defined('_JEXEC') or die;

/** What one page view is configured with. */
final class Settings
{
    /** Host names the bundle accepts in `domains` and service `hosts` (its own check, src/config/fields.ts). */
    const HOST = '/^[a-z0-9.-]+\.[a-z]{2,}$/D';

    /** The bundles the package ships (media/). */
    const BUNDLES = array('lite' => 'pagepulse.lite.iife.js', 'react' => 'pagepulse.iife.js');

    /** com_gdpr's option names for the texts the bundle takes (docs/protocol.md#consent-texts). */
    const GDPR_TEXTS = array(
        'header' => 'headerText',
        'message' => 'messageText',
        'deny_text' => 'denyText',
        'allow_text' => 'allowText',
        'cookie_settings_label' => 'cookieSettingsLabel',
        'cookie_settings_desc' => 'cookieSettingsDesc',
        'privacy_policy_link_text' => 'privacyPolicyLinkText',
        'cookie_policy_link_text' => 'cookiePolicyLinkText',
        'placeholder_blocked_resources_text' => 'placeholderText',
        'deny_message' => 'denyMessage',
    );

    /** com_gdpr's switches the bundle takes (option => PagePulseConfig key). */
    const GDPR_SWITCHES = array(
        'revokable' => 'revokable',
        'always_reload_after_categories_change' => 'reloadAfterChange',
        'placeholder_blocked_resources' => 'placeholders',
        'deny_message_enabled' => 'denyMessageEnabled',
        'open_always_declined' => 'openAlwaysDeclined',
        'enable_log_cookie_consent' => 'logConsent',
    );

    /**
     * Scripts of the original clients the bundle replaces: a needle the page must hold => their
     * address's path. The first is com_jrealtimeanalytics' tracker (replaced by PagePulse's tracker),
     * the second com_gdpr's banner (replaced by PagePulse's consent).
     */
    const CLIENTS = array(
        'com_jrealtimeanalytics/js/' => '~(?:^|/)components/com_jrealtimeanalytics/js/(?:stream|heatmap)(?:\.min)?\.js$~i',
        'plugins/system/gdpr/assets/js/' => '~(?:^|/)plugins/system/gdpr/assets/js/(?:cookieconsent\.min|init)\.js$~i',
    );

    /** @var Policy */
    public $policy;

    /** @var array<string, string> data-* attributes of the tag, in order */
    public $attributes = array();

    /** @var array<string, mixed> window.PagePulseConfig (empty: none printed) */
    public $config = array();

    /** @var string file name of the bundle under media/ */
    public $bundle;

    /** @var bool whether the server rewrites vendor elements */
    public $blocking;

    /** @var array<string, string> what the rewriter takes out of the page */
    public $remove = array();

    /** @var string[] what was ignored, for the debug console and the tests */
    public $warnings = array();

    /** @var bool whether PagePulse's consent runs on this site (data-consent="on") */
    public $consent;

    /**
     * @var bool a print view or a modal (tmpl=component, layout=modal): the tag there only releases
     *      what the visitor's choice allows (no tracker, keep-alive, revoke button or banner reopened)
     */
    public $bare;

    /**
     * @param Policy $policy the built-in table (services.json)
     * @param array $params the plugin's parameters
     * @param array $site root (path of the site, '' or '/sub'), language (Joomla tag, `de-DE`),
     *        bare (true in a print view or a modal)
     * @param array|null $gdpr com_gdpr when installed and its consent on: params (as stored),
     *        disabled (category => 1 where the visitor's session has it off), text (a translator for
     *        its language constants, or null)
     */
    public function __construct(Policy $policy, array $params, array $site, $gdpr = null)
    {
        $this->policy = $policy;
        $get = function ($name, $default) use ($params) {
            return isset($params[$name]) && $params[$name] !== '' ? $params[$name] : $default;
        };
        $bundle = (string) $get('bundle', 'lite');
        $this->bundle = array_key_exists($bundle, self::BUNDLES) ? self::BUNDLES[$bundle] : self::BUNDLES['lite'];
        $consent = (bool) (int) $get('consent', 1);
        $this->consent = $consent;
        $this->blocking = $consent && (bool) (int) $get('blocking', 1);
        $this->bare = !empty($site['bare']);
        // a print view or a modal is no page view of its own (a modal's page counted it already)
        $tracker = !$this->bare && (bool) (int) $get('tracker', 1);
        if ((int) $get('replace_clients', 1)) {
            // only what PagePulse replaces on this site: with its consent off com_gdpr's banner is
            // the site's only one, with its tracker off the component's tracker its only tracker
            $this->remove = array_filter(self::CLIENTS, function ($needle) use ($tracker, $consent) {
                return $needle === 'com_jrealtimeanalytics/js/' ? $tracker : $consent;
            }, ARRAY_FILTER_USE_KEY);
        }

        $root = isset($site['root']) ? rtrim((string) $site['root'], '/') : '';
        $base = trim((string) $get('base', ''));
        $this->attributes['data-base'] = $base !== '' && preg_match('~^(?:https?://|/)~i', $base) ? rtrim($base, '/') . '/' : $root . '/';
        $lang = (string) $get('lang', 'auto');
        if ($lang === 'auto') {
            $tag = isset($site['language']) ? strtolower(substr((string) $site['language'], 0, 2)) : '';
            $lang = $tag === 'de' || $tag === 'en' ? $tag : '';
        }
        if ($lang === 'de' || $lang === 'en') {
            $this->attributes['data-lang'] = $lang;
        }
        $this->attributes['data-tracker'] = $tracker ? 'on' : 'off';
        $this->attributes['data-consent'] = $consent ? 'on' : 'off';
        if ($this->bare) {
            $this->attributes['data-keepalive'] = 'off';
        }

        if ($gdpr !== null && $consent) {
            $this->fromGdpr($gdpr);
        }
        $compliance = (string) $get('compliance', 'auto');
        if ($compliance === 'opt-in' || $compliance === 'opt-out') {
            $policy->compliance = $compliance;
        }
        if ($consent) {
            $this->attributes['data-compliance'] = $policy->compliance;
            if ($policy->compliance === 'opt-in') {
                $this->config['complianceType'] = 'opt-in';
            }
        }
        $privacy = self::link($get('privacy_url', ''));
        if ($privacy !== null) {
            $this->attributes['data-privacy-url'] = $privacy;
            unset($this->config['privacyUrl']);
        }
        $cookiePolicy = self::link($get('cookie_policy_url', ''));
        if ($cookiePolicy !== null && $consent) {
            $this->config['cookiePolicyLink'] = $cookiePolicy;
        }
        $revision = (int) $get('revision', 0);
        $policy->revision = max(0, min(1000000000, $revision));
        if ($consent) {
            $this->attributes['data-revision'] = (string) $policy->revision;
        }
        $this->attributes['data-selectors'] = $get('selectors', 'original') === 'stable' ? 'stable' : 'original';
        if ((int) $get('debug', 0)) {
            $this->attributes['data-debug'] = '1';
        }
        if ($consent) {
            $this->extraServices((string) $get('services', ''));
            for ($id = 2; $id <= 4; $id++) {
                $this->extraDomains($id, (string) $get('domains_' . $id, ''));
            }
        }
        if ($this->bare && $consent) {
            // nothing of the banner in a print view or a modal: the plugin puts the tag there only
            // for a visitor with a choice, and this keeps the revoke button and a declined
            // visitor's banner away too (com_gdpr's values come earlier and are overridden)
            $this->config['revokable'] = false;
            $this->config['openAlwaysDeclined'] = false;
        }
    }

    /**
     * com_gdpr's server settings for the bundle: compliance type, categories (offered, name, locked,
     * the visitor's session switches, their domains) and the texts the site changed (stored
     * params only: com_gdpr's English code defaults would replace PagePulse's translated texts).
     */
    private function fromGdpr(array $gdpr)
    {
        $params = isset($gdpr['params']) && is_array($gdpr['params']) ? $gdpr['params'] : array();
        $disabled = isset($gdpr['disabled']) && is_array($gdpr['disabled']) ? $gdpr['disabled'] : array();
        $text = isset($gdpr['text']) && is_callable($gdpr['text']) ? $gdpr['text'] : function ($value) {
            return $value;
        };
        $type = isset($params['compliance_type']) ? (string) $params['compliance_type'] : 'opt-in';
        $this->policy->compliance = $type === 'opt-in' ? 'opt-in' : 'opt-out';
        $this->config['complianceType'] = $this->policy->compliance;
        foreach (self::GDPR_SWITCHES as $option => $key) {
            if (isset($params[$option]) && $params[$option] !== '') {
                $this->config[$key] = (bool) (int) $params[$option];
            }
        }
        foreach (self::GDPR_TEXTS as $option => $key) {
            if (isset($params[$option]) && is_string($params[$option]) && trim($params[$option]) !== '') {
                $this->config[$key] = (string) call_user_func($text, trim($params[$option]));
            }
        }
        foreach (array('privacy_policy_link' => 'privacyUrl', 'cookie_policy_link' => 'cookiePolicyLink') as $option => $key) {
            $link = isset($params[$option]) ? self::link($params[$option]) : null;
            if ($link !== null) {
                $this->config[$key] = $link;
            }
        }
        $useCategories = $type !== 'info';
        $anyCategory = false;
        for ($id = 1; $id <= 4; $id++) {
            $anyCategory = $anyCategory || !empty($params['cookie_category' . $id . '_enable']);
        }
        $this->config['useCategories'] = $useCategories && $anyCategory;
        if (!$this->config['useCategories']) {
            return;
        }
        $checkedDefault = array(1 => 1, 2 => 1, 3 => 0, 4 => 0);
        $categories = array();
        for ($id = 1; $id <= 4; $id++) {
            $entry = array('offered' => !empty($params['cookie_category' . $id . '_enable']));
            if (isset($params['cookie_category' . $id . '_name']) && trim((string) $params['cookie_category' . $id . '_name']) !== '') {
                $entry['name'] = (string) call_user_func($text, trim((string) $params['cookie_category' . $id . '_name']));
            }
            if ($id > 1) {
                $entry['locked'] = !empty($params['cookie_category' . $id . '_locked']);
                $this->policy->categories[$id]['locked'] = $entry['locked'];
            }
            // com_gdpr prints gdprCookieCategoryDisabledN = 1 from the session, else from "checked"
            $checked = isset($params['cookie_category' . $id . '_checked']) ? (int) $params['cookie_category' . $id . '_checked'] : $checkedDefault[$id];
            $off = !empty($disabled[$id]) || !$checked;
            if ($id > 1) {
                $entry['defaultOn'] = !$off;
                $entry['disabled'] = $off;
                $this->policy->categories[$id]['defaultOn'] = !$off;
                $this->policy->categories[$id]['disabled'] = $off;
            }
            $domains = isset($params['domains_category' . $id . '_list']) ? self::lines($params['domains_category' . $id . '_list']) : array();
            $domains = $this->plainHosts($domains, 'com_gdpr domains_category' . $id . '_list');
            if ($domains && $id > 1) {
                $this->policy->addDomains($id, $domains);
                $entry['domains'] = $this->policy->categories[$id]['domains'];
            }
            $categories[$id] = $entry;
        }
        $this->config['categories'] = $categories;
    }

    /**
     * The site's own services, one a line: `key | category | name | host, host`
     * (`vimeo-pro | 4 | Vimeo Pro | vimeopro.com`). A bad line is reported and left out.
     */
    private function extraServices($text)
    {
        foreach (self::lines($text) as $line) {
            $parts = array_map('trim', explode('|', $line));
            $key = strtolower($parts[0]);
            $category = isset($parts[1]) && preg_match('/^[2-4]$/D', $parts[1]) ? (int) $parts[1] : 0;
            $name = isset($parts[2]) ? $parts[2] : '';
            $hosts = isset($parts[3]) ? $this->plainHosts(array_map('trim', explode(',', $parts[3])), 'service ' . $key) : array();
            if (count($parts) !== 4 || $category === 0 || $name === '' || !$hosts || !$this->policy->setService($key, array('category' => $category, 'name' => $name, 'hosts' => $hosts))) {
                $this->warnings[] = 'ignored service line "' . $line . '": expected key | 2-4 | name | host, host';
                continue;
            }
            $this->config['services'][$key] = array('category' => $category, 'name' => $name, 'hosts' => $hosts, 'cookies' => array());
        }
    }

    /** The site's own domains of a category, added to the built-in ones (here and in the bundle). */
    private function extraDomains($id, $text)
    {
        $hosts = $this->plainHosts(self::lines($text), 'domains_' . $id);
        if (!$hosts) {
            return;
        }
        $this->policy->addDomains($id, $hosts);
        $plain = array_values(array_filter($this->policy->categories[$id]['domains'], function ($host) {
            return (bool) preg_match(Settings::HOST, $host);
        }));
        $this->config['categories'][$id]['domains'] = $plain;
    }

    /** Host names the bundle accepts too; the others reported. */
    private function plainHosts(array $hosts, $where)
    {
        $out = array();
        foreach ($hosts as $host) {
            $host = strtolower(trim($host));
            if ($host === '') {
                continue;
            }
            if (preg_match(self::HOST, $host) && strlen($host) <= 253) {
                $out[] = $host;
            } else {
                $this->warnings[] = 'ignored host "' . $host . '" in ' . $where;
            }
        }
        return array_values(array_unique($out));
    }

    /** Non-empty trimmed lines. */
    private static function lines($text)
    {
        return array_values(array_filter(array_map('trim', preg_split('/\R/', (string) $text)), 'strlen'));
    }

    /** An http(s) or site-relative link; com_gdpr's `javascript:void(0)` and the like are none. */
    private static function link($value)
    {
        $value = trim((string) $value);
        return $value !== '' && preg_match('~^(?:https?://|/(?!/)|[a-z0-9_-]+(?:[/?#.]|$))~i', $value) && !preg_match('~^\s*javascript:~i', $value) ? $value : null;
    }
}
