<?php
/**
 * dist/pagepulse-joomla.zip as Joomla's installer takes it: a valid archive, a system plugin
 * manifest whose file list is exactly the archive's, PHP that lints, the bundles the build made,
 * and services.json generated from the bundle's own table.
 */

use PagePulse\Tests\Zip;
use PHPUnit\Framework\TestCase;

require_once __DIR__ . '/support/Zip.php';

final class PackageTest extends TestCase
{
    /** @var array<string, string>|null */
    private static $entries;

    private static function entries()
    {
        if (self::$entries === null) {
            self::$entries = Zip::read(PAGEPULSE_ZIP);
        }
        return self::$entries;
    }

    public function testTheArchiveIsWhatUnzipReadsToo()
    {
        exec('unzip -tq ' . escapeshellarg(PAGEPULSE_ZIP) . ' 2>&1', $output, $status);
        $this->assertSame(0, $status, implode("\n", $output));
        $this->assertSame(array(
            'pagepulse.xml',
            'language/de-DE/de-DE.plg_system_pagepulse.ini',
            'language/de-DE/de-DE.plg_system_pagepulse.sys.ini',
            'language/en-GB/en-GB.plg_system_pagepulse.ini',
            'language/en-GB/en-GB.plg_system_pagepulse.sys.ini',
            'lib/Consent.php',
            'lib/Head.php',
            'lib/Policy.php',
            'lib/Rewriter.php',
            'lib/Settings.php',
            'media/pagepulse.debug.lite.js',
            'media/pagepulse.heatmap.js',
            'media/pagepulse.iife.js',
            'media/pagepulse.lite.iife.js',
            'pagepulse.php',
            'services.json',
        ), array_keys(self::entries()));
    }

    public function testTheManifestInstallsASystemPluginAndListsExactlyTheFiles()
    {
        $entries = self::entries();
        $xml = simplexml_load_string($entries['pagepulse.xml']);
        $this->assertNotFalse($xml);
        $this->assertSame('extension', $xml->getName());
        $this->assertSame('plugin', (string) $xml['type']);
        $this->assertSame('system', (string) $xml['group']);
        $this->assertSame('upgrade', (string) $xml['method']);
        $this->assertSame('plg_system_pagepulse', (string) $xml->name);
        $package = json_decode(file_get_contents(PAGEPULSE_ROOT . '/package.json'), true);
        $this->assertSame($package['version'], (string) $xml->version);
        $plugin = $xml->xpath('files/filename[@plugin]');
        $this->assertSame('pagepulse', (string) $plugin[0]['plugin']);
        $this->assertSame('pagepulse.php', (string) $plugin[0]);

        $listed = array('pagepulse.xml');
        foreach ($xml->files->children() as $node) {
            $listed = array_merge($listed, $this->expand($entries, (string) $node, $node->getName()));
        }
        foreach ($xml->languages->language as $node) {
            $listed[] = $xml->languages['folder'] . '/' . $node;
            $this->assertStringStartsWith((string) $node['tag'] . '/' . $node['tag'] . '.plg_system_pagepulse.', (string) $node, 'language files named for Joomla 3 too');
        }
        $this->assertSame('plg_system_pagepulse', (string) $xml->media['destination']);
        foreach ($xml->media->children() as $node) {
            $listed = array_merge($listed, $this->expand($entries, $xml->media['folder'] . '/' . $node, $node->getName()));
        }
        sort($listed);
        $names = array_keys($entries);
        sort($names);
        $this->assertSame($names, $listed);

        // every setting has a label and a help text in both languages, and every key is translated
        preg_match_all('/\b(PLG_SYSTEM_PAGEPULSE_[A-Z0-9_]+)/', $entries['pagepulse.xml'], $keys);
        foreach ($xml->xpath('//field') as $field) {
            $this->assertNotEmpty((string) $field['label'], (string) $field['name']);
            $this->assertNotEmpty((string) $field['description'], (string) $field['name']);
        }
        foreach (array('en-GB', 'de-DE') as $tag) {
            $ini = parse_ini_string($entries["language/$tag/$tag.plg_system_pagepulse.ini"], false, INI_SCANNER_RAW);
            $sys = parse_ini_string($entries["language/$tag/$tag.plg_system_pagepulse.sys.ini"], false, INI_SCANNER_RAW);
            $this->assertNotFalse($ini, $tag);
            foreach (array_unique($keys[1]) as $key) {
                $this->assertArrayHasKey($key, $ini, "$tag $key");
                $this->assertNotSame('', trim($ini[$key], '"'), "$tag $key");
            }
            $this->assertArrayHasKey('PLG_SYSTEM_PAGEPULSE', $sys);
            $this->assertArrayHasKey('PLG_SYSTEM_PAGEPULSE_XML_DESCRIPTION', $sys);
        }
    }

    /**
     * The settings render on every Joomla the manifest claims (version="3.9"): no field names a
     * layout 3.9 lacks (`joomla.form.field.radio.switcher` came with 3.10, and on 3.9 its fields
     * were empty and showon hid the fields that depend on them; audit finding 6). The yes/no
     * switches are radios on their default layout (`joomla.form.field.radio.buttons`, 3.5 to 5.x)
     * with the button-group classes both generations style, and every showon names such a field.
     */
    public function testTheSettingsRenderOnJoomla39()
    {
        $xml = simplexml_load_string(self::entries()['pagepulse.xml']);
        $this->assertSame('3.9', (string) $xml['version']);
        $fields = array();
        foreach ($xml->xpath('//field') as $field) {
            $fields[(string) $field['name']] = $field;
            $this->assertFalse(isset($field['layout']), (string) $field['name'] . ' names a layout: ' . $field['layout']);
        }
        $switches = 0;
        foreach ($fields as $name => $field) {
            if ((string) $field['type'] === 'radio') {
                $this->assertSame('btn-group btn-group-yesno', (string) $field['class'], $name);
                $this->assertSame(array('0', '1'), array_map('strval', $field->xpath('option/@value')), $name);
                $switches++;
            }
            if (isset($field['showon'])) {
                list($controller, $value) = explode(':', (string) $field['showon']);
                $this->assertArrayHasKey($controller, $fields, $name);
                $this->assertContains($value, array_map('strval', $fields[$controller]->xpath('option/@value')), $name);
            }
        }
        $this->assertSame(5, $switches);
    }

    /** A manifest entry's files: the file itself, or everything under a folder. */
    private function expand(array $entries, $path, $kind)
    {
        if ($kind === 'folder') {
            $inside = array_values(array_filter(array_keys($entries), function ($name) use ($path) {
                return strpos($name, $path . '/') === 0;
            }));
            $this->assertNotEmpty($inside, $path);
            return $inside;
        }
        $this->assertArrayHasKey($path, $entries);
        return array($path);
    }

    public function testEveryPhpFileLints()
    {
        $dir = sys_get_temp_dir() . '/pagepulse-lint-' . getmypid();
        $linted = 0;
        foreach (self::entries() as $name => $bytes) {
            if (substr($name, -4) !== '.php') {
                continue;
            }
            $file = $dir . '/' . $name;
            @mkdir(dirname($file), 0777, true);
            file_put_contents($file, $bytes);
            exec(escapeshellarg(PHP_BINARY) . ' -l ' . escapeshellarg($file) . ' 2>&1', $output, $status);
            $this->assertSame(0, $status, $name . ': ' . implode("\n", $output));
            unlink($file);
            $linted++;
        }
        exec('rm -rf ' . escapeshellarg($dir));
        $this->assertSame(6, $linted);
    }

    public function testTheBundlesAreTheOnesTheBuildMade()
    {
        foreach (array('pagepulse.iife.js', 'pagepulse.lite.iife.js', 'pagepulse.heatmap.js', 'pagepulse.debug.lite.js') as $file) {
            $this->assertSame(hash_file('sha256', PAGEPULSE_ROOT . '/dist/' . $file), hash('sha256', self::entries()['media/' . $file]), $file);
        }
        // and the staged package is the zip's content
        foreach (self::entries() as $name => $bytes) {
            $this->assertSame(hash_file('sha256', PAGEPULSE_STAGE . '/' . $name), hash('sha256', $bytes), $name);
        }
    }

    public function testServicesJsonIsTheBundlesTable()
    {
        $table = json_decode(self::entries()['services.json'], true);
        $this->assertSame(array('youtube', 'vimeo', 'googlemaps', 'google-analytics', 'google-tag-manager', 'matomo', 'meta-pixel'), array_slice(array_keys($table['services']), 0, 7));
        $this->assertSame(array('category' => 4, 'name' => 'YouTube', 'hosts' => array('youtube.com', 'youtube-nocookie.com')), $table['services']['youtube']);
        // Maps on www.google.*/maps (a host pattern with a path) and on maps.google.* (any top-level domain)
        $this->assertContains('google.*/maps', $table['services']['googlemaps']['hosts']);
        $this->assertContains('maps.google.*', $table['services']['googlemaps']['hosts']);
        $this->assertContains('doubleclick.net', $table['categories'][4]['domains']);
        // the TypeScript table (src/config/services.ts) names each of them: the table is generated, not copied by hand
        $source = file_get_contents(PAGEPULSE_ROOT . '/src/config/services.ts');
        foreach ($table['services'] as $key => $service) {
            $this->assertMatchesRegularExpression('~[\'"]?' . preg_quote($key, '~') . '[\'"]?:\s*\{\s*category:\s*' . $service['category'] . '~', $source, $key);
        }
    }
}
