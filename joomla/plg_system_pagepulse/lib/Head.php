<?php
/**
 * The tag FIRST in <head> (docs/protocol.md#configuration; README "Joomla"): synchronous, with
 * its settings as data-* attributes, after a leading `<meta charset>` (which must stay within the
 * page's first 1024 bytes) and before every other script, style and iframe.
 *
 * @license MIT
 */

namespace PagePulse\Joomla;

defined('_JEXEC') or die;

/** Builds the tag and puts it into the page. */
final class Head
{
    /**
     * Up to the `<head>` start tag, past a doctype, comments and `<html>`; attributes read as the
     * parser reads them (a quoted `>` does not end the tag), possessive throughout.
     */
    const HEAD = '~\A(?:\xEF\xBB\xBF)?(?:\s++|<!--(?:[^-]++|-(?!->))*+-->|<!doctype[^>]*+>|<html(?:[\t\n\f\r /](?:[\t\n\f\r /]++|[^\t\n\f\r />][^\t\n\f\r />=]*+(?:[\t\n\f\r ]*+=[\t\n\f\r ]*+(?:"[^"]*+"|\'[^\']*+\'|[^\t\n\f\r >]*+))?+)*+)?>)*+<head(?:[\t\n\f\r /](?:[\t\n\f\r /]++|[^\t\n\f\r />][^\t\n\f\r />=]*+(?:[\t\n\f\r ]*+=[\t\n\f\r ]*+(?:"[^"]*+"|\'[^\']*+\'|[^\t\n\f\r >]*+))?+)*+)?>~i';

    /** The `<meta>` elements (and whitespace) right after `<head>`; a charset one among them. */
    const LEADING_META = '~\G(?:\s*+<meta\s[^>]*+>)*+~i';

    /**
     * The markup: the config script (when there is one) and the tag.
     *
     * @param Settings $settings
     * @param string $src the bundle's address
     * @param string|null $nonce the page's CSP nonce
     * @return string
     */
    public static function markup(Settings $settings, $src, $nonce)
    {
        $nonceAttribute = $nonce !== null && $nonce !== '' ? ' nonce="' . self::escape($nonce) . '"' : '';
        $out = '';
        if ($settings->config) {
            $json = json_encode($settings->config, JSON_HEX_TAG | JSON_HEX_AMP | JSON_UNESCAPED_SLASHES | JSON_PARTIAL_OUTPUT_ON_ERROR);
            $out .= '<script' . $nonceAttribute . '>window.PagePulseConfig=' . $json . ';</script>';
        }
        $out .= '<script src="' . self::escape($src) . '"' . $nonceAttribute;
        foreach ($settings->attributes as $name => $value) {
            $out .= ' ' . $name . '="' . self::escape($value) . '"';
        }
        return $out . '></script>';
    }

    /**
     * The page with the markup first in its head; unchanged when it has no `<head>` start tag.
     *
     * @param string $html
     * @param string $markup
     * @return string
     */
    public static function insert($html, $markup)
    {
        $at = self::at($html);
        return $at === null ? $html : substr($html, 0, $at) . $markup . substr($html, $at);
    }

    /**
     * Where the tag goes, or null when the page has no `<head>` start tag before anything else
     * (a fragment, an XML prolog): the plugin then leaves the page as it is, since embeds held
     * back without the bundle would never be released.
     *
     * @param string $html
     * @return int|null
     */
    public static function at($html)
    {
        if (!preg_match(self::HEAD, $html, $head)) {
            return null;
        }
        $at = strlen($head[0]);
        if (preg_match(self::LEADING_META, $html, $metas, 0, $at) && preg_match('~<meta\s[^>]*?\b(?:charset\s*=|http-equiv\s*=\s*["\']?content-type)~i', $metas[0], $charset, PREG_OFFSET_CAPTURE)) {
            // after the charset declaration (and the metas before it), not after later ones
            $end = strpos($metas[0], '>', $charset[0][1]);
            $at += $end + 1;
        }
        return $at;
    }

    /** An attribute value. */
    public static function escape($value)
    {
        return htmlspecialchars((string) $value, ENT_QUOTES | ENT_SUBSTITUTE, 'UTF-8');
    }
}
